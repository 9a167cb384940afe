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

  it('leaves no listener on a request that could still call it', async () => {
    // A body read whole leaves its ended request `data` and `end` listeners, which an ended
    // stream never calls; nothing else stays, whether the body parsed or not.
    const grown: Record<string, number>[] = [];
    const json = parsers.json();
    const events = ['data', 'end', 'close', 'error', 'aborted', 'readable'];
    const live = (req: http.IncomingMessage) =>
      events.filter((e) => !req.readableEnded || (e !== 'data' && e !== 'end'));
    const probe: Middleware = (req, res, next) => {
      const before = events.map((e) => req.listenerCount(e));
      json(req, res, (err) => {
        const growth: Record<string, number> = {};
        for (const e of live(req)) {
          const added = req.listenerCount(e) - (before[events.indexOf(e)] as number);
          if (added !== 0) growth[e] = added;
        }
        grown.push(growth);
        next(err);
      });
    };
    await exchange(probe, 'application/json', '{"a":1}');
    await exchange(probe, 'application/json', '{"a":');
    assert.deepEqual(grown, [{}, {}]);
  });

  it('keeps its data and end listeners on a request read to its end (body-parser removes them)', async () => {
    let kept: number[] = [];
    const json = parsers.json();
    const probe: Middleware = (req, res, next) => {
      const before = [req.listenerCount('data'), req.listenerCount('end')];
      json(req, res, (err) => {
        kept = [req.listenerCount('data'), req.listenerCount('end')].map(
          (n, i) => n - (before[i] as number),
        );
        next(err);
      });
    };
    assertBody(await exchange(probe, 'application/json', '{"a":1}'), { a: 1 });
    assert.deepEqual(kept, [1, 1]);
  });

  it('keeps one close listener on a connection, however many bodies it reads', async () => {
    const counts: number[] = [];
    const json = parsers.json();
    const probe: Middleware = (req, res, next) =>
      json(req, res, (err) => {
        counts.push(req.socket.listenerCount('close'));
        next(err);
      });
    await withServer(probe, async (server) => {
      const body = '{"a":1}';
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
      });
      // Four requests on one connection, pipelined: node:http takes them one after another.
      await sendRaw(server, Array(4).fill(head + body), { timeoutMs: 300 });
      for (let i = 0; i < 4; i++) await server.nextOutcome();
    });
    assert.equal(counts.length, 4);
    assert.equal(new Set(counts).size, 1, `close listeners: ${counts}`);
  });
});
