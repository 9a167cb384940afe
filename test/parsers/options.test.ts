import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { type AnyParser, assertBody, assertError, exchange } from '../helpers/parsers.js';

const all: readonly AnyParser[] = [parsers.json, parsers.raw, parsers.text, parsers.urlencoded];

describe('parser options', () => {
  it("rejects a limit that is not a size at creation, with body-parser's message", () => {
    for (const factory of all) {
      for (const limit of ['abc', 'mb', NaN, true, {}]) {
        assert.throws(() => factory({ limit: limit as never }), {
          name: 'TypeError',
          message: `option limit "${String(limit)}" is invalid`,
        });
      }
    }
  });

  it('rejects a verify that is not a function', () => {
    for (const factory of all) {
      assert.throws(() => factory({ verify: 'yes' as never }), {
        name: 'TypeError',
        message: 'option verify must be function',
      });
    }
  });

  it('rejects a urlencoded defaultCharset other than utf-8 or iso-8859-1', () => {
    assert.throws(() => parsers.urlencoded({ defaultCharset: 'koi8-r' as never }), {
      name: 'TypeError',
      message: 'option defaultCharset must be either utf-8 or iso-8859-1',
    });
  });

  it('rejects a parameterLimit below one or not a number', () => {
    for (const parameterLimit of [0, -1, NaN, 'x']) {
      assert.throws(() => parsers.urlencoded({ parameterLimit: parameterLimit as never }), {
        name: 'TypeError',
        message: 'option parameterLimit must be a positive number',
      });
    }
  });

  it('rejects a negative or non-numeric depth when extended', () => {
    for (const depth of [-1, NaN, 'x']) {
      assert.throws(() => parsers.urlencoded({ extended: true, depth: depth as never }), {
        name: 'TypeError',
        message: 'option depth must be a zero or a positive number',
      });
    }
  });

  it('rejects an unknown onProtoPoisoning action', () => {
    assert.throws(() => parsers.json({ onProtoPoisoning: 'strip' as never }), TypeError);
  });

  it('accepts a number of bytes as limit', async () => {
    const result = await exchange(parsers.text({ limit: 4 }), 'text/plain', '12345');
    assertError(result, 413, 'entity.too.large', 'request entity too large', { limit: 4 });
  });

  it('accepts a size string as limit', async () => {
    const parser = parsers.text({ limit: '1kb' });
    assertBody(await exchange(parser, 'text/plain', 'x'.repeat(1024)), 'x'.repeat(1024));
    const result = await exchange(parser, 'text/plain', 'x'.repeat(1025));
    assertError(result, 413, 'entity.too.large', 'request entity too large', { limit: 1024 });
  });

  it('defaults limit to 100kb', async () => {
    const result = await exchange(parsers.raw(), 'application/octet-stream', Buffer.alloc(102401));
    assertError(result, 413, 'entity.too.large', 'request entity too large', { limit: 102400 });
  });

  it('refuses compressed bodies with inflate: false', async () => {
    const result = await exchange(parsers.json({ inflate: false }), 'application/json', 'x', {
      'content-encoding': 'gzip',
    });
    assertError(result, 415, 'encoding.unsupported', 'content encoding unsupported', {
      encoding: 'gzip',
      charset: 'gzip',
    });
  });

  it('accepts identity with inflate: false', async () => {
    const parser = parsers.json({ inflate: false });
    const result = await exchange(parser, 'application/json', '{}', {
      'content-encoding': 'identity',
    });
    assertBody(result, {});
  });

  it("never changes the caller's options object, and ignores later changes to it", async () => {
    const options = { limit: '1kb', type: 'text/plain' };
    const frozen = Object.freeze({ ...options });
    const parser = parsers.text(options);
    parsers.text(frozen);
    assert.deepEqual(options, { limit: '1kb', type: 'text/plain' });
    options.limit = '1b';
    options.type = 'text/html';
    assertBody(await exchange(parser, 'text/plain', 'hello'), 'hello');
  });

  it('treats missing options and an empty object alike', async () => {
    for (const parser of [parsers.json(), parsers.json({}), parsers.json(undefined)]) {
      assertBody(await exchange(parser, 'application/json', '{"a":1}'), { a: 1 });
    }
  });
});
