import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayHoldPrototypeKey } from '../../src/parsers/json.js';

describe('the prototype-key pre-check', () => {
  it('lets ordinary bodies skip the walk, non-ASCII escapes included', () => {
    for (const body of [
      '{"a":1}',
      '{"name":"caf\\u00e9","zh":"\\u4e2d"}',
      '[1,2,3]',
      '{"proto":"x"}',
    ]) {
      assert.equal(mayHoldPrototypeKey(body), false, body);
    }
  });

  it('flags literal and escaped spellings', () => {
    for (const body of [
      '{"__proto__":1}',
      '{"constructor":1}',
      '{"\\u005f_proto__":1}',
      '{"__pr\\u006Fto__":1}',
      '{"\\u0063onstructor":1}',
    ]) {
      assert.equal(mayHoldPrototypeKey(body), true, body);
    }
  });
});
