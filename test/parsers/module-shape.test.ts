import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsers } from '../../src/index.js';

test('calling the parsers object itself throws body-parser 2 message for the split generic', () => {
  assert.throws(() => parsers(), /bodyParser\(\) generic has been split/);
});

test('the parsers object carries exactly the four factories, toResponse and problemHandler', () => {
  assert.deepEqual(Object.keys(parsers).sort(), [
    'json',
    'problemHandler',
    'raw',
    'text',
    'toResponse',
    'urlencoded',
  ]);
});

test('each factory keeps its name and carries read, its promise form, and reader, nothing else', () => {
  for (const name of ['json', 'raw', 'text', 'urlencoded'] as const) {
    const parser = parsers[name];
    assert.equal(parser.name, name);
    assert.deepEqual(Object.keys(parser), ['read', 'reader']);
    assert.equal(typeof parser.read, 'function');
    assert.equal(typeof parser.reader, 'function');
  }
});
