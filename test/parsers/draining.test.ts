import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { DRAIN_LIMIT_MS } from '../../src/parsers/read-body.js';
import { rawHead, send, sendRaw } from '../helpers/index.js';
import { withServer } from '../helpers/parsers.js';

describe('after an error the rest of the body', () => {
  it('is read off so the client gets its response on a reusable connection', async () => {
    await withServer(parsers.json({ limit: '8kb' }), async (server) => {
      const chunk = '.'.repeat(10240);
      const reply = await send(server, {
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: [chunk, chunk, chunk],
        chunkDelayMs: 5,
      });
      assert.equal(reply.status, 413);
      await server.nextOutcome();
      // On a keep-alive connection the next request is still understood after the error.
      // An early error (415) while the body is still on its way, then a good request.
      const bad = rawHead('POST', '/', {
        'Content-Type': 'application/json; charset=koi8-r',
        'Content-Length': 12,
      });
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': 12,
      });
      const raw = await sendRaw(server, [bad, '{"a":', '"b"}   ', head, '{"c":2}     '], {
        delayMs: 10,
        timeoutMs: 300,
      });
      assert.equal(raw.ended, 'timeout', 'the connection stayed open');
      assert.match(raw.raw, /^HTTP\/1\.1 415[\s\S]*HTTP\/1\.1 200[\s\S]*\{"c":2\}$/);
      assert.doesNotMatch(raw.raw, /connection: close/i);
      await server.nextOutcome();
      await server.nextOutcome();
    });
  });

  it('is delivered before next(err) for an early error (415)', async () => {
    await withServer(parsers.json(), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json; charset=koi8-r',
        'Content-Length': 4,
      });
      const reply = await sendRaw(server, [head, '{', '}  '], { delayMs: 20, timeoutMs: 300 });
      assert.equal(reply.status, 415);
      const outcome = await server.nextOutcome();
      assert.equal(outcome.nextCalls, 1);
    });
  });

  it('is not waited for forever: a client that stalls gets its answer and a closed connection', async () => {
    await withServer(parsers.json({ limit: 4 }), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      });
      // Past the limit, then silence: the body never ends. The client waits twice the drain's
      // time bound: the server must close the connection first.
      const reply = await sendRaw(server, [head, '8\r\n{"a":12}\r\n'], {
        timeoutMs: 2 * DRAIN_LIMIT_MS,
      });
      assert.equal(reply.status, 413);
      assert.equal(reply.ended, 'closed');
      assert.match(reply.raw, /connection: close/i);
      await server.nextOutcome();
    });
  });

  it('is not read past the byte bound: a hostile stream gets its answer and a closed connection', async () => {
    await withServer(parsers.text({ limit: 10 }), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'text/plain',
        'Transfer-Encoding': 'chunked',
      });
      const piece = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
      const pieces = [head, ...Array(24).fill(piece)];
      const reply = await sendRaw(server, pieces, { timeoutMs: 3000 });
      assert.equal(reply.status, 413);
      assert.equal(reply.ended, 'closed');
      await server.nextOutcome();
    });
  });

  it('is not read past the byte bound even when it ends: a fast client gets its answer and a closed connection', async () => {
    // 2 MiB sent at once and properly ended: only the byte bound (not the time bound) can stop
    // the reading, and the connection is then closed instead of kept for another request.
    await withServer(parsers.text({ limit: 10 }), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'text/plain',
        'Transfer-Encoding': 'chunked',
      });
      const piece = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
      const pieces = [head, ...Array(32).fill(piece), '0\r\n\r\n'];
      const reply = await sendRaw(server, pieces, { timeoutMs: 5000 });
      assert.equal(reply.status, 413);
      assert.match(reply.raw, /connection: close/i);
      assert.equal(reply.ended, 'closed');
      await server.nextOutcome();
    });
  });
});
