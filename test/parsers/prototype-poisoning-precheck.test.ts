import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesMayHoldPrototypeKey, mayHoldPrototypeKey } from '../../src/parsers/json.js';

/** The pre-check over the text, and over its UTF-8 bytes (Bun's). */
function precheck(body: string): [boolean, boolean] {
  return [mayHoldPrototypeKey(body), bytesMayHoldPrototypeKey(Buffer.from(body), body)];
}

describe('the prototype-key pre-check', () => {
  it('lets ordinary bodies skip the walk, non-ASCII escapes included', () => {
    for (const body of [
      '{"a":1}',
      '{"name":"caf\\u00e9","zh":"\\u4e2d"}',
      '[1,2,3]',
      // A `constructor` key is only a prototype key with a `prototype` key in its value.
      '{"constructor":"Widget"}',
    ]) {
      assert.deepEqual(precheck(body), [false, false], body);
    }
  });

  it('flags literal and escaped spellings of __proto__ and of constructor.prototype', () => {
    for (const body of [
      '{"__proto__":1}',
      '{"constructor":{"prototype":{}}}',
      '{"\\u005f_proto__":1}',
      '{"__pr\\u006Fto__":1}',
      '{"\\u0063onstructor":{"prototype":{}}}',
      '{"constructor":{"pr\\u006ftotype":{}}}',
    ]) {
      assert.deepEqual(precheck(body), [true, true], body);
    }
  });
});
