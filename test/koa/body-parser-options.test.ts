import assert from 'node:assert/strict';
import { test } from 'node:test';
import { koa } from '../../src/index.js';

// bodyParser's options are read once, when the middleware is made: a bad one throws a
// TypeError there (at `app.use`), never per request. Each row is one option refused.

const refused: ReadonlyArray<readonly [string, unknown, RegExp]> = [
  ['an unknown kind in enableTypes', { enableTypes: ['json', 'yaml'] }, /enableTypes/],
  ['enableTypes that is not a list', { enableTypes: 'json' }, /enableTypes/],
  ['an unknown kind in extendTypes', { extendTypes: { yaml: ['a/b'] } }, /extendTypes.*yaml/],
  ['a falsy media type in extendTypes', { extendTypes: { json: ['', null] } }, /extendTypes\.json/],
  ['a jsonLimit that is no size', { jsonLimit: 'lots' }, /jsonLimit "lots"/],
  ['a formLimit that is no size', { formLimit: true }, /formLimit/],
  ['an encoding no charset library knows', { encoding: 'klingon' }, /encoding "klingon"/],
  ['an encoding JSON is never sent in', { encoding: 'latin1' }, /encoding "latin1".*JSON/],
  [
    'an encoding forms are never sent in',
    { enableTypes: ['form'], encoding: 'utf-16le' },
    /encoding "utf-16le".*form/,
  ],
  ['jsonStrict and strict that disagree', { jsonStrict: true, strict: false }, /one option/],
  ['a jsonStrict that is not a boolean', { jsonStrict: 'no' }, /jsonStrict must be a boolean/],
  ['onError and onerror that differ', { onError: () => {}, onerror: () => {} }, /one option/],
  ['an onError that is not a function', { onError: 'log' }, /onError must be a function/],
  ['a detectJSON that is not a function', { detectJSON: true }, /detectJSON/],
  ['parsedMethods that is not a list', { parsedMethods: 'POST' }, /parsedMethods/],
  ['a qs option bodyParser does not take', { queryString: { arrayLimit: 5 } }, /arrayLimit/],
  ['a qs module of its own (koa-bodyparser 4 passed it on)', { qs: {} }, /option qs/],
  ['a queryString.depth that is no number', { queryString: { depth: 'deep' } }, /depth/],
  ['an onProtoPoisoning of no action', { onProtoPoisoning: 'warn' }, /onProtoPoisoning/],
];

for (const [what, options, message] of refused) {
  test(`bodyParser refuses ${what} with a TypeError when made`, () => {
    assert.throws(
      () => koa.bodyParser(options as never),
      (err: unknown) => {
        assert.ok(err instanceof TypeError);
        assert.match(err.message, message);
        return true;
      },
    );
  });
}

test('bodyParser takes utf8 and latin1 spelled as Node spells them', () => {
  koa.bodyParser({ encoding: 'utf8' });
  koa.bodyParser({ enableTypes: ['text'], encoding: 'latin1' });
});

test("bodyParser only reads the caller's options object, never changes it", () => {
  const options = { enableTypes: ['json'], extendTypes: { json: ['a/b'] } } as const;
  const before = JSON.stringify(options);
  koa.bodyParser(options);
  assert.equal(JSON.stringify(options), before);
});
