// A small encoded body with a Content-Length is inflated in one call; a large or chunked one is
// streamed. Whichever way a body goes, the result, the error and its properties are the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import type { Middleware } from '../helpers/index.js';
import { assertBody, assertError, type Exchange, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';

/** The same compressed bytes sent with a Content-Length (read whole) and chunked (streamed). */
async function bothWays(parser: Middleware, body: Buffer): Promise<[Exchange, Exchange]> {
  const whole = await exchange(parser, JSON_TYPE, body, { 'content-encoding': 'gzip' });
  const streamed = await exchange(parser, JSON_TYPE, [body], {
    'content-encoding': 'gzip',
    'transfer-encoding': 'chunked',
  });
  return [whole, streamed];
}

/** What a test can compare of two errors: everything but the stack and the cause's stack. */
function errorView(result: Exchange): Record<string, unknown> {
  const err = result.outcome.error as Error & Record<string, unknown>;
  const { stack: _stack, cause, ...rest } = err;
  return {
    ...rest,
    message: err.message,
    name: err.name,
    cause: cause instanceof Error ? cause.message : cause,
  };
}

describe('a small encoded body read whole and the same body streamed', () => {
  it('parse to the same body', async () => {
    const results = await bothWays(parsers.json(), zlib.gzipSync('{"a":[1,2,"论"]}'));
    for (const result of results) assertBody(result, { a: [1, 2, '论'] });
  });

  it('give the same error for corrupt data', async () => {
    const corrupt = Buffer.concat([zlib.gzipSync('{"a":1}').subarray(0, 10), Buffer.from('xyz')]);
    const [whole, streamed] = await bothWays(parsers.json(), corrupt);
    assertError(whole, 400, 'entity.inflate.failed', /./);
    assert.deepEqual(errorView(whole), errorView(streamed));
  });

  it('give the same error for a truncated body', async () => {
    const truncated = zlib.gzipSync('{"a":"b"}').subarray(0, 15);
    const [whole, streamed] = await bothWays(parsers.json(), truncated);
    assertError(whole, 400, 'entity.inflate.failed', 'unexpected end of file');
    assert.deepEqual(errorView(whole), errorView(streamed));
  });

  it('give the same 413 for a body that inflates past the limit', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(512 * 1024, 0x20));
    const [whole, streamed] = await bothWays(parsers.json({ limit: '100kb' }), bomb);
    assertError(whole, 413, 'entity.too.large', 'request entity too large', { limit: 102400 });
    assert.deepEqual(errorView(whole), errorView(streamed));
  });
});

describe('a small encoded body that inflates to more than one call may make', () => {
  it('is parsed when it stays within the limit', async () => {
    const text = JSON.stringify({ pad: 'x'.repeat(600 * 1024) });
    const result = await exchange(parsers.json({ limit: '1mb' }), JSON_TYPE, zlib.gzipSync(text), {
      'content-encoding': 'gzip',
    });
    assertBody(result, JSON.parse(text));
  });

  it('is refused with 413 when it passes the limit, within one chunk of it', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const result = await exchange(parsers.json({ limit: '2mb' }), JSON_TYPE, bomb, {
      'content-encoding': 'gzip',
    });
    const err = assertError(result, 413, 'entity.too.large', 'request entity too large', {
      limit: 2 * 1024 * 1024,
    });
    assert.ok((err.received as number) <= 2 * 1024 * 1024 + 64 * 1024);
  });
});

describe('a large compressed body streamed', () => {
  // 8 MiB that gzip cannot shrink: zlib falls behind the socket, holds more than the 1 MiB it
  // may hold unread, and the request is paused until zlib drains, then resumed.
  it('is read whole when the request is paused for zlib and resumed', async () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0, x = 1; i < bytes.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      bytes[i] = x >>> 24;
    }
    const result = await exchange(
      parsers.raw({ limit: '16mb' }),
      'application/octet-stream',
      [zlib.gzipSync(bytes, { level: 1 })],
      { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' },
    );
    assert.equal(result.outcome.error, undefined, result.reply.text);
    assert.ok(bytes.equals(result.outcome.body as Buffer));
  });
});
