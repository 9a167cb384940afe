import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { frameworks } from '../helpers/index.js';
import { exchange } from '../helpers/parsers.js';

describe('inside every host framework', () => {
  for (const framework of frameworks) {
    it(`parses JSON, forms, text and raw bodies in ${framework}`, async () => {
      const stack = [
        parsers.json(),
        parsers.urlencoded({ extended: true }),
        parsers.text(),
        parsers.raw(),
      ];
      const cases: Array<[string, string, unknown]> = [
        ['application/json', '{"a":[1]}', { a: [1] }],
        ['application/x-www-form-urlencoded', 'a[b]=c', { a: { b: 'c' } }],
        ['text/plain', 'hi', 'hi'],
        ['application/octet-stream', 'hi', Buffer.from('hi')],
      ];
      for (const [type, body, expected] of cases) {
        const result = await exchange(stack, type, body, {}, framework);
        assert.equal(result.reply.status, 200, result.reply.text);
        assert.deepEqual(result.outcome.body, expected);
      }
    });

    it(`delivers errors to the framework's error path in ${framework}`, async () => {
      const result = await exchange(parsers.json(), 'application/json', '{', {}, framework);
      assert.equal(result.reply.status, 400);
      assert.match(result.reply.text, /^\[entity\.parse\.failed\] /);
      assert.equal(result.outcome.nextCalls, 1);
    });

    it(`leaves req.body undefined when no parser matched in ${framework}`, async () => {
      const result = await exchange(parsers.json(), 'text/plain', 'x', {}, framework);
      assert.equal(result.outcome.body, undefined);
    });
  }
});
