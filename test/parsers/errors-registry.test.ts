import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type ErrorType, errorKinds } from '../../src/index.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Written out so the compiler checks it against the exported union, both ways.
const listed = [
  'charset.unsupported',
  'encoding.unsupported',
  'entity.inflate.failed',
  'entity.parse.failed',
  'entity.prototype.forbidden',
  'entity.too.large',
  'entity.validation.failed',
  'entity.validation.threw',
  'entity.validation.timeout',
  'entity.verify.failed',
  'entity.verify.timeout',
  'media.type.unsupported',
  'parameters.too.many',
  'querystring.parse.rangeError',
  'request.aborted',
  'request.size.invalid',
  'request.timeout',
  'stream.encoding.set',
  'stream.not.readable',
] as const satisfies readonly ErrorType[];
const exhaustive: Equal<(typeof listed)[number], ErrorType> = true;

/** The rows of the error table in docs/errors.md: type -> status. */
function documentedKinds(): Map<string, number> {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = new Map<string, number>();
  for (const match of doc.matchAll(/^\| `([\w.]+)` +\| (\d{3}) +\|/gm)) {
    rows.set(match[1] as string, Number(match[2]));
  }
  return rows;
}

describe('the error registry', () => {
  it('lists the same kinds as the exported ErrorType and the documented error table', () => {
    assert.equal(exhaustive, true);
    const registry = Object.keys(errorKinds).sort();
    assert.deepEqual(registry, [...listed].sort());
    assert.deepEqual([...documentedKinds().keys()].sort(), registry);
  });

  it('documents each kind with its registry status', () => {
    for (const [type, status] of documentedKinds()) {
      assert.equal(errorKinds[type as ErrorType].status, status, type);
    }
  });

  it('exposes messages of client errors only: the 5xx kinds hide theirs', () => {
    const hidden = Object.entries(errorKinds)
      .filter(([, spec]) => !spec.expose)
      .map(([type]) => type);
    assert.deepEqual(hidden.sort(), [
      'entity.validation.threw',
      'entity.validation.timeout',
      'entity.verify.timeout',
      'stream.encoding.set',
      'stream.not.readable',
    ]);
  });

  it('is frozen', () => {
    assert.equal(Object.isFrozen(errorKinds), true);
    assert.equal(Object.isFrozen(errorKinds['entity.too.large']), true);
  });
});
