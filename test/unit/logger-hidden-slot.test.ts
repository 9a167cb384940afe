import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { hiddenSlot } from '../../src/logger/hidden-slot.js';

describe('hiddenSlot', () => {
  it('attaches a value that only the slot can read back', () => {
    const slot = hiddenSlot<{ n: number }>();
    const other = hiddenSlot<{ n: number }>();
    const target = { a: 1 };
    assert.equal(slot.get(target), undefined);
    slot.attach(target, { n: 1 });
    assert.deepEqual(slot.get(target), { n: 1 });
    assert.equal(other.get(target), undefined);
  });

  it('leaves no trace that reflection, serialisers or inspect can see', () => {
    const slot = hiddenSlot<{ n: number }>();
    const target = { a: 1 };
    const before = { keys: Reflect.ownKeys(target), json: JSON.stringify(target) };
    const shown = inspect(target, { showHidden: true });
    slot.attach(target, { n: 1 });
    assert.deepEqual(Reflect.ownKeys(target), before.keys);
    assert.equal(JSON.stringify(target), before.json);
    assert.equal(inspect(target, { showHidden: true }), shown);
    const seen: string[] = [];
    for (const key in target) seen.push(key);
    assert.deepEqual(seen, ['a']);
  });

  it('works on frozen objects and answers undefined for non-objects', () => {
    const slot = hiddenSlot<{ n: number }>();
    const frozen = Object.freeze({});
    slot.attach(frozen, { n: 2 });
    assert.deepEqual(slot.get(frozen), { n: 2 });
    assert.equal(slot.get(null as unknown as object), undefined);
    assert.equal(slot.get('text' as unknown as object), undefined);
  });
});
