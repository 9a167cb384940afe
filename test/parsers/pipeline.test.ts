import assert from 'node:assert/strict';
import type http from 'node:http';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import type { Middleware } from '../helpers/index.js';
import { rawHead, send, sendRaw } from '../helpers/index.js';
import { assertBody, exchange, withServer } from '../helpers/parsers.js';

describe('the read pipeline', () => {
  it('leaves req.body undefined for a request without a body', async () => {
    await withServer(parsers.json(), async (server) => {
      // Neither Content-Length nor Transfer-Encoding: no body (RFC 9112 sec 6.3).
      const head = rawHead('POST', '/', { 'Content-Type': 'application/json' });
      const reply = await sendRaw(server, [head], { timeoutMs: 300 });
      const outcome = await server.nextOutcome();
      assert.match(reply.raw, /\r\n\r\nundefined$/);
      assert.equal(outcome.body, undefined);
      // A GET from Node's client carries no body either.
      const get = await send(server, { headers: { 'content-type': 'application/json' } });
      assert.equal(get.text, 'undefined');
      await server.nextOutcome();
    });
  });

  it('sets req.body as an own property (undefined) once a parser ran', async () => {
    let own = false;
    const json = parsers.json();
    const probe: Middleware = (req, res, next) =>
      json(req, res, () => {
        own = Object.hasOwn(req, 'body');
        next();
      });
    await exchange(probe, 'text/plain', 'x');
    assert.equal(own, true);
  });

  it('parses Content-Length: 0 as a body (an empty one)', async () => {
    assertBody(await exchange(parsers.urlencoded(), 'application/x-www-form-urlencoded', ''), {});
  });

  it('is safe to install twice: the second parser sees the body already read', async () => {
    const result = await exchange([parsers.json(), parsers.json()], 'application/json', '{"a":1}');
    assertBody(result, { a: 1 });
  });

  it('keeps the body of the first matching parser when several are installed', async () => {
    const result = await exchange(
      [parsers.text({ type: '*/*' }), parsers.json()],
      'application/json',
      '{"a":1}',
    );
    assertBody(result, '{"a":1}');
  });

  it('leaves a body set by earlier middleware alone when the request is already read', async () => {
    const json = parsers.json();
    const earlier: Middleware = (req, res, next) => {
      (req as { body?: unknown }).body = 'set earlier';
      req.on('end', () => json(req, res, next));
      req.resume();
    };
    assertBody(await exchange(earlier, 'application/json', '{"a":1}'), 'set earlier');
  });

  it('calls next exactly once on success and on error', async () => {
    const ok = await exchange(parsers.json(), 'application/json', '{}');
    assert.equal(ok.outcome.nextCalls, 1);
    const bad = await exchange(parsers.json(), 'application/json', '{');
    assert.equal(bad.outcome.nextCalls, 1);
  });

  it('leaves no listener on the request or its connection after parsing', async () => {
    const counts: number[] = [];
    const json = parsers.json();
    const listeners = (req: http.IncomingMessage) => [
      ...['data', 'end', 'close', 'error', 'aborted'].map((e) => req.listenerCount(e)),
      req.socket.listenerCount('close'),
    ];
    const probe: Middleware = (req, res, next) => {
      const before = listeners(req);
      json(req, res, (err) => {
        counts.push(...listeners(req).map((n, i) => n - (before[i] as number)));
        next(err);
      });
    };
    await exchange(probe, 'application/json', '{"a":1}');
    await exchange(probe, 'application/json', '{"a":');
    assert.deepEqual(counts, Array(12).fill(0));
  });
});
