import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import { DRAIN_LIMIT_MS } from '../../src/parsers/read-body.js';
import { rawHead, sendRaw } from '../helpers/index.js';
import { assertBody, assertError, exchange, withServer } from '../helpers/parsers.js';

describe('the size limit', () => {
  it('refuses an over-limit Content-Length before reading the body', async () => {
    await withServer(parsers.json({ limit: 10 }), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': 1000,
      });
      const reply = await sendRaw(server, [head, 'x'.repeat(1000)], { timeoutMs: 300, delayMs: 5 });
      const outcome = await server.nextOutcome();
      assert.equal(reply.status, 413);
      assert.match(reply.raw, /\[entity\.too\.large\] request entity too large/);
      const err = outcome.error as Record<string, unknown>;
      assert.equal(err.length, 1000);
      assert.equal(err.expected, 1000);
      assert.equal(err.limit, 10);
      assert.equal(err.received, undefined, 'no byte was counted');
    });
  });

  it('answers a huge over-limit Content-Length at once and closes the connection', async () => {
    await withServer(parsers.json(), async (server) => {
      // Only the head is sent: the answer must not wait for the 1 GB announced.
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': 2 ** 30,
      });
      const started = Date.now();
      const reply = await sendRaw(server, [head], { timeoutMs: 1500 });
      assert.equal(reply.status, 413);
      assert.equal(reply.ended, 'closed');
      assert.match(reply.raw, /connection: close/i);
      // Not after the drain's time bound, which a server reading the body would wait for.
      assert.ok(Date.now() - started < DRAIN_LIMIT_MS, 'answered before the drain gave up');
      await server.nextOutcome();
    });
  });

  it('counts a chunked body while reading and stops past the limit', async () => {
    const result = await exchange(
      parsers.text({ limit: 100 }),
      'text/plain',
      ['a'.repeat(60), 'b'.repeat(60)],
      {
        'transfer-encoding': 'chunked',
      },
    );
    assertError(result, 413, 'entity.too.large', 'request entity too large', {
      limit: 100,
      received: 120,
    });
  });

  it('counts inflated bytes: a small gzip that inflates past the limit is refused', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    assert.ok(bomb.length < 2048);
    const result = await exchange(parsers.json({ limit: '100kb' }), 'application/json', bomb, {
      'content-encoding': 'gzip',
    });
    const err = assertError(result, 413, 'entity.too.large', 'request entity too large', {
      limit: 102400,
    });
    assert.ok(
      (err.received as number) <= 102400 + 64 * 1024,
      'stops within one chunk of the limit',
    );
  });

  it('accepts a body of exactly the limit', async () => {
    const result = await exchange(
      parsers.raw({ limit: 8 }),
      'application/octet-stream',
      '12345678',
    );
    assert.equal(result.reply.status, 200);
  });

  // The streaming count is the only check for bodies without a Content-Length (chunked) and for
  // encoded ones (the Content-Length counts compressed bytes): its boundary is tested for both.
  const streamed: Record<
    string,
    (body: string) => { body: Buffer | string[]; headers: Record<string, string> }
  > = {
    chunked: (body) => ({
      body: [body.slice(0, 60), body.slice(60)],
      headers: { 'transfer-encoding': 'chunked' },
    }),
    gzip: (body) => ({ body: zlib.gzipSync(body), headers: { 'content-encoding': 'gzip' } }),
  };
  for (const [name, encode] of Object.entries(streamed)) {
    it(`accepts a ${name} body of exactly the limit`, async () => {
      const { body, headers } = encode('c'.repeat(100));
      const result = await exchange(parsers.text({ limit: 100 }), 'text/plain', body, headers);
      assertBody(result, 'c'.repeat(100));
    });

    it(`refuses a ${name} body one byte over the limit`, async () => {
      const { body, headers } = encode('c'.repeat(101));
      const result = await exchange(parsers.text({ limit: 100 }), 'text/plain', body, headers);
      assertError(result, 413, 'entity.too.large', 'request entity too large', {
        limit: 100,
        received: 101,
      });
    });
  }
});
