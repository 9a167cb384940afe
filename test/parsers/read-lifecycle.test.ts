import assert from 'node:assert/strict';
import type http from 'node:http';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import express from 'express';
import { hostileSetup } from '../helpers/hostile.js';
import { rawHead, sendPartial, sendRaw, serve, type TestServer } from '../helpers/index.js';

const hostile = hostileSetup();

// The read pipeline against the life of a request: a body asked for after its response was
// sent (node:http then discards it), a client that leaves at any moment while a `read` or the
// middleware is pending, and two reads of one request. Whatever happens, each `read` settles
// once with a documented error, and never with a body that was not the one sent.

const BODY = '{"amount":1000000000}';

/** How a `read` or the middleware came out: the body, or the error's type. */
type Settled = { body: unknown } | { type: string };

function outcome(err: unknown): Settled {
  return { type: String((err as { type?: unknown }).type) };
}

/** A server whose handler runs `attempt` and records how it settled, in arrival order. */
async function recording(
  attempt: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<Settled>,
): Promise<{ server: TestServer; settled: Settled[] }> {
  const settled: Settled[] = [];
  const server = await serve((req, res) => {
    attempt(req, res).then((s) => settled.push(s));
  });
  return { server, settled };
}

function readWith(
  req: http.IncomingMessage,
  options: Record<string, unknown> = {},
): Promise<Settled> {
  return hostile.subject.parsers.json.read(req, options).then((body) => ({ body }), outcome);
}

/** The json middleware as a promise: what it left in req.body when it called next. */
function middleware(req: http.IncomingMessage, res: http.ServerResponse): Promise<Settled> {
  return new Promise((resolve) => {
    hostile.subject.parsers.json()(req, res, (err?: unknown) =>
      resolve(err === undefined ? { body: (req as { body?: unknown }).body } : outcome(err)),
    );
  });
}

const framings = {
  chunked: {
    head: { 'transfer-encoding': 'chunked' },
    body: `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
  },
  'Content-Length': { head: { 'content-length': BODY.length }, body: BODY },
} as const;

/** Sends the head, then (100 ms later, once the response was sent) the whole body. */
async function bodyAfterResponse(server: TestServer, framing: keyof typeof framings) {
  const { head, body } = framings[framing];
  await sendRaw(
    server,
    [rawHead('POST', '/', { 'content-type': 'application/json', ...head }), body],
    {
      delayMs: 100,
      timeoutMs: 400,
    },
  );
}

async function waitFor(settled: Settled[], count: number, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (settled.length < count && Date.now() < deadline) await delay(10);
}

describe('a body asked for after the response was sent', () => {
  /**
   * The handler answers at once, waits `ms` (0: not at all), then runs `attempt`; the client
   * sends its body 100 ms after its head, once the response was sent. What `attempt` came to.
   */
  async function afterResponse(
    framing: keyof typeof framings,
    ms: number,
    attempt: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<Settled>,
  ): Promise<Settled[]> {
    const { server, settled } = await recording(async (req, res) => {
      res.end('answered');
      // After a while the response has finished: node:http discards the unread body.
      if (ms > 0) await delay(ms);
      return attempt(req, res);
    });
    try {
      await bodyAfterResponse(server, framing);
      await waitFor(settled, 1);
      return settled;
    } finally {
      await server.close();
    }
  }

  const refused = [{ type: 'stream.not.readable' }];

  for (const framing of Object.keys(framings) as (keyof typeof framings)[]) {
    test(`${framing}: read after node:http discarded the body (no res given) rejects 500 stream.not.readable, never {}`, async () => {
      assert.deepEqual(await afterResponse(framing, 20, (req) => readWith(req)), refused);
    });

    test(`${framing}: read right after res.end() with res given rejects 500 stream.not.readable`, async () => {
      const outcomes = await afterResponse(framing, 0, (req, res) => readWith(req, { res }));
      assert.deepEqual(outcomes, refused);
    });

    test(`${framing}: the middleware after the response was sent calls next() and leaves req.body undefined`, async () => {
      for (const ms of [0, 20]) {
        const outcomes = await afterResponse(framing, ms, middleware);
        assert.deepEqual(outcomes, [{ body: undefined }], `after ${ms} ms`);
      }
    });
  }

  test('under Express, read finds the response in req.res: stream.not.readable once it was sent', async () => {
    const settled: Settled[] = [];
    const app = express();
    app.use((req, res) => {
      res.end('answered');
      readWith(req).then((s) => settled.push(s));
    });
    const server = await serve(app as unknown as http.RequestListener);
    try {
      await bodyAfterResponse(server, 'chunked');
      await waitFor(settled, 1);
      assert.deepEqual(settled, [{ type: 'stream.not.readable' }]);
    } finally {
      await server.close();
    }
  });
});

describe('a client that leaves while its body is read', () => {
  for (const framing of Object.keys(framings) as (keyof typeof framings)[]) {
    for (const [name, attempt] of [
      ['read', (req: http.IncomingMessage) => readWith(req)],
      ['the middleware', middleware],
    ] as const) {
      test(`${framing}: ${name} pending when a timeout middleware answered settles with 400 request.aborted once the client leaves`, async () => {
        const { server, settled } = await recording(async (req, res) => {
          setTimeout(() => res.end('timed out'), 20);
          return attempt(req, res);
        });
        try {
          const head = rawHead('POST', '/', {
            'content-type': 'application/json',
            ...(framing === 'chunked'
              ? { 'transfer-encoding': 'chunked' }
              : { 'content-length': 100 }),
          });
          const part = framing === 'chunked' ? '5\r\n{"a":\r\n' : '{"a":';
          // The head and part of the body, then 80 ms of silence (the response is sent in
          // it), then the client goes away.
          await sendRaw(server, [head, part], { delayMs: 40, abort: true });
          await waitFor(settled, 1);
          assert.deepEqual(settled, [{ type: 'request.aborted' }]);
        } finally {
          await server.close();
        }
      });
    }
  }

  /**
   * How `read` of a text body settled on HTTP/2 when the client reset the stream with an error
   * code `abortAfterMs` into the body, with and without a Content-Length; `handle` calls `read`.
   */
  async function afterReset(
    abortAfterMs: number,
    handle: (req: http.IncomingMessage, res: http.ServerResponse, read: () => void) => void,
  ): Promise<Settled[]> {
    const all: Settled[] = [];
    for (const length of [{ 'content-length': 100 }, {}]) {
      const settled: Settled[] = [];
      const server = await serve((req, res) => {
        handle(req, res, () => {
          hostile.subject.parsers.text
            .read(req)
            .then((body) => ({ body }), outcome)
            .then((s) => settled.push(s));
        });
      }, 'h2');
      try {
        await sendPartial(server, {
          headers: { 'content-type': 'text/plain', ...length },
          body: ['part'],
          abortAfterMs,
          abort: 'stream-error',
          timeoutMs: 500,
        });
        await waitFor(settled, 1);
        all.push(...settled);
      } finally {
        await server.close();
      }
    }
    return all;
  }

  test('HTTP/2: a stream reset mid-body (RST_STREAM with an error code) once a timeout middleware answered: read rejects 400 request.aborted, never the cut body', async () => {
    const settled = await afterReset(60, (_req, res, read) => {
      setTimeout(() => res.end('timed out'), 10);
      read();
    });
    assert.deepEqual(settled, [{ type: 'request.aborted' }, { type: 'request.aborted' }]);
  });

  test('HTTP/2: read called after the client reset the stream mid-body rejects 400 request.aborted, not stream.not.readable', async () => {
    // node:http2 ends a reset request as if its body were whole: only `aborted` tells.
    const settled = await afterReset(30, (_req, _res, read) => setTimeout(read, 150));
    assert.deepEqual(settled, [{ type: 'request.aborted' }, { type: 'request.aborted' }]);
  });

  test('600 clients that send part of a body and leave at random, read or parsed behind a random async gap, a timeout middleware answering some: every one settles with a documented outcome', async () => {
    const pending = new Set<number>();
    const outcomes: Record<string, number> = {};
    let seen = 0;
    const verify = () => delay(30);
    const server = await serve((req, res) => {
      const [, , gap, answer, how] = (req.url ?? '').split('/');
      const id = seen++;
      pending.add(id);
      if (answer !== 'none') setTimeout(() => res.end('timed out'), Number(answer));
      setTimeout(async () => {
        const settled =
          how === 'middleware'
            ? await middleware(req, res)
            : await readWith(req, how === 'verify' ? { verify } : how === 'res' ? { res } : {});
        const key =
          'type' in settled
            ? settled.type
            : 'body' in settled && settled.body === undefined
              ? 'next()'
              : 'body';
        outcomes[key] = (outcomes[key] ?? 0) + 1;
        pending.delete(id);
      }, Number(gap));
    });
    try {
      const clients: Promise<unknown>[] = [];
      const hows = ['read', 'res', 'verify', 'middleware'];
      for (let i = 0; i < 600; i++) {
        const framing = i % 2 === 0 ? 'chunked' : 'length';
        const gap = [0, 5, 40, 150][(i >> 1) % 4];
        const answer = ['none', '0', '20', '100'][(i >> 3) % 4];
        const how = hows[(i >> 5) % hows.length];
        const head = rawHead('POST', `/${framing}/${gap}/${answer}/${how}`, {
          'content-type': 'application/json',
          ...(framing === 'chunked'
            ? { 'transfer-encoding': 'chunked' }
            : { 'content-length': 100 }),
        });
        const part = framing === 'chunked' ? '5\r\n{"a":\r\n' : '{"a":';
        clients.push(
          sendRaw(server, [head, part], { delayMs: Math.floor(Math.random() * 120), abort: true }),
        );
        if (i % 50 === 49) await Promise.all(clients.splice(0));
      }
      await Promise.all(clients);
      const deadline = Date.now() + 3000;
      while (pending.size > 0 && Date.now() < deadline) await delay(20);
      assert.equal(pending.size, 0, `${pending.size} of ${seen} never settled`);
      for (const key of Object.keys(outcomes)) {
        assert.ok(
          ['request.aborted', 'stream.not.readable', 'next()'].includes(key),
          `outcome ${key}: ${JSON.stringify(outcomes)}`,
        );
      }
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });
});

describe('two reads of one request', () => {
  /**
   * Starts `first` on a request whose body comes in two pieces, calls `read` again while it is
   * pending, and gives what the second read and then the first came to.
   */
  async function secondReadDuring(
    first: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<Settled>,
    { paused = false } = {},
  ): Promise<Settled[]> {
    const { server, settled } = await recording(async (req, res) => {
      if (paused) req.pause();
      const pending = first(req, res);
      settled.push(await readWith(req));
      if (paused) req.resume();
      const result = await pending;
      res.end();
      return result;
    });
    try {
      const head = rawHead('POST', '/', {
        'content-type': 'application/json',
        'content-length': BODY.length,
      });
      await sendRaw(server, [head, BODY.slice(0, 5), BODY.slice(5)], {
        delayMs: 30,
        timeoutMs: 500,
      });
      await waitFor(settled, 2);
      return settled;
    } finally {
      await server.close();
    }
  }

  const refusedThenBody = [{ type: 'stream.not.readable' }, { body: JSON.parse(BODY) }];

  test('a second concurrent read rejects 500 stream.not.readable while the first resolves to the whole body', async () => {
    assert.deepEqual(await secondReadDuring((req) => readWith(req)), refusedThenBody);
  });

  test('a second read of a paused request rejects, and the first reads the body once resumed', async () => {
    const outcomes = await secondReadDuring((req) => readWith(req), { paused: true });
    assert.deepEqual(outcomes, refusedThenBody);
  });

  test('read while the middleware is reading the body rejects, and the middleware gets the body', async () => {
    assert.deepEqual(await secondReadDuring(middleware), refusedThenBody);
  });
});
