import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import type { Middleware } from '../helpers/index.js';
import { rawHead, sendRaw } from '../helpers/index.js';
import { assertError, exchange, withServer } from '../helpers/parsers.js';

describe('malformed and interrupted requests', () => {
  it('reports a body shorter than the Content-Length as 400 request.size.invalid', async () => {
    const json = parsers.json();
    const lying: Middleware = (req, res, next) => {
      req.headers['content-length'] = '20';
      json(req, res, next);
    };
    const result = await exchange(lying, 'application/json', '{"str":');
    assertError(result, 400, 'request.size.invalid', 'request size did not match content length', {
      expected: 20,
      length: 20,
      received: 7,
    });
  });

  it('reports a client that aborts mid-body as 400 request.aborted', async () => {
    await withServer(parsers.json(), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': 100,
      });
      await sendRaw(server, [head, '{"a":'], { abort: true, delayMs: 30 });
      const outcome = await server.nextOutcome();
      const err = outcome.error as Record<string, unknown>;
      assert.equal(err.type, 'request.aborted');
      assert.equal(err.status, 400);
      assert.equal(err.message, 'request aborted');
      assert.equal(err.expected, 100);
      assert.equal(err.received, 5);
      assert.equal(outcome.nextCalls, 1);
    });
  });

  it('reports a request the application destroys mid-body as request.aborted, calling next once', async () => {
    // req.destroy() by application code emits 'aborted' and 'close' but no 'error' (a client
    // abort emits 'error' too), so only the 'close' listener can tell the parser.
    const text = parsers.text();
    const destroyOnFirstChunk: Middleware = (req, res, next) => {
      req.once('data', () => req.destroy());
      text(req, res, next);
    };
    await withServer(destroyOnFirstChunk, async (server) => {
      const head = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 100 });
      const reply = await sendRaw(server, [head, 'hello'], { delayMs: 20 });
      assert.equal(reply.ended, 'closed');
      const outcome = await server.nextOutcome();
      const err = outcome.error as Record<string, unknown>;
      assert.equal(err.type, 'request.aborted');
      assert.equal(err.status, 400);
      assert.equal(err.received, 5);
      assert.equal(outcome.nextCalls, 1);
      // A second call of next for the destroyed request would be queued before this outcome.
      const after = await sendRaw(server, [
        rawHead('POST', '/', {
          'Content-Type': 'text/plain',
          'Content-Length': 0,
          Connection: 'close',
        }),
      ]);
      assert.equal(after.status, 200);
      assert.equal((await server.nextOutcome()).error, undefined);
    });
  });

  it('reports an aborted compressed body as 400 request.aborted (body-parser never calls next)', async () => {
    await withServer(parsers.json(), async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Transfer-Encoding': 'chunked',
      });
      // The first bytes of a valid gzip stream, then the client goes away.
      const start = zlib.gzipSync(`{"a":"${'x'.repeat(100)}"}`).subarray(0, 10);
      const chunk = Buffer.concat([Buffer.from('a\r\n'), start, Buffer.from('\r\n')]);
      await sendRaw(server, [head, chunk], { abort: true, delayMs: 30 });
      const outcome = await server.nextOutcome();
      assert.equal((outcome.error as { type?: string }).type, 'request.aborted');
      assert.equal(outcome.nextCalls, 1);
    });
  });

  it('reports req.setEncoding() before the parser as 500 stream.encoding.set', async () => {
    const json = parsers.json();
    const setter: Middleware = (req, res, next) => {
      req.setEncoding('utf8');
      json(req, res, next);
    };
    const result = await exchange(setter, 'application/json', '{"a":1}');
    assertError(result, 500, 'stream.encoding.set', 'stream encoding should not be set');
  });

  it('reports a request that is no longer readable as 500 stream.not.readable', async () => {
    const json = parsers.json();
    const unreadable: Middleware = (req, res, next) => {
      Object.defineProperty(req, 'readable', { value: false, configurable: true });
      json(req, res, next);
    };
    const result = await exchange(unreadable, 'application/json', '{"a":1}');
    assertError(result, 500, 'stream.not.readable', 'stream is not readable');
  });

  it('leaves a request whose body was already consumed to the next middleware', async () => {
    const json = parsers.json();
    const consumer: Middleware = (req, res, next) => {
      req.on('end', () => json(req, res, next));
      req.resume();
    };
    const result = await exchange(consumer, 'application/json', '{"a":1}');
    assert.equal(result.outcome.error, undefined);
    assert.equal(result.outcome.body, undefined);
    assert.equal((result.outcome as { body?: unknown }).body, undefined);
  });

  it('answers a lying Content-Length longer than the body once the client gives up', async () => {
    await withServer(parsers.text(), async (server) => {
      const head = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 50 });
      const reply = await sendRaw(server, [head, 'short'], { abort: true, delayMs: 20 });
      assert.equal(reply.ended, 'closed');
      const outcome = await server.nextOutcome();
      assert.equal((outcome.error as { type?: string }).type, 'request.aborted');
    });
  });

  it('reads exactly Content-Length bytes when the body is longer (the rest is not body)', async () => {
    await withServer(parsers.text(), async (server) => {
      const head = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 3 });
      // Node's HTTP parser reads `def` as the start of a next (malformed) request.
      await sendRaw(server, [`${head}abcdef`], { timeoutMs: 500 });
      const outcome = await server.nextOutcome();
      assert.equal(outcome.error, undefined);
      assert.equal(outcome.body, 'abc');
    });
  });
});
