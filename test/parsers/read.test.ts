import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { z } from 'zod';
import { parsers } from '../../src/index.js';
import {
  frameworks,
  type Middleware,
  rawHead,
  send,
  sendPartial,
  sendRaw,
  serve,
  type TestServer,
} from '../helpers/index.js';
import { assertBody, assertError, exchange, withServer } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';

/**
 * `read` in a middleware's place: awaited, its body put in `req.body` and its rejection given to
 * `next`, so the promise form runs through the same servers and checks as the middleware.
 */
function readThen(
  read: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>,
): Middleware {
  return (req, res, next) => {
    read(req, res).then((body) => {
      (req as { body?: unknown }).body = body;
      next();
    }, next);
  };
}

describe('read, the promise form, in an async node:http handler', () => {
  let server: TestServer;
  /** What each request's handler saw, in arrival order. */
  const seen: Array<{ body?: unknown; error?: unknown; bodyKey: boolean }> = [];
  const User = z.object({ name: z.string(), admin: z.boolean().default(false) });

  before(async () => {
    server = await serve(async (req, res) => {
      try {
        const body = await parsers.json.read(req, { schema: User, limit: '1kb', res });
        seen.push({ body, bodyKey: 'body' in req });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ hello: body.name, admin: body.admin }));
      } catch (error) {
        seen.push({ error, bodyKey: 'body' in req });
        const err = error as { status?: number; type?: string; expose?: boolean };
        res.statusCode = err.status ?? 500;
        res.end(err.expose ? err.type : 'error');
      }
    });
  });
  after(() => server.close());

  it('resolves to the validated body, and leaves req.body alone', async () => {
    const reply = await send(server, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE },
      body: '{"name":"ada"}',
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(JSON.parse(reply.text), { hello: 'ada', admin: false });
    assert.deepEqual(seen.shift(), { body: { name: 'ada', admin: false }, bodyKey: false });
  });

  it('rejects with the typed errors: 422 for the schema, 413 over the limit, 400 for bad JSON', async () => {
    const cases: Array<[string, number, string]> = [
      ['{"name":1}', 422, 'entity.validation.failed'],
      [`{"name":"${'x'.repeat(2000)}"}`, 413, 'entity.too.large'],
      ['{"name":', 400, 'entity.parse.failed'],
    ];
    for (const [body, status, type] of cases) {
      const reply = await send(server, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE },
        body,
      });
      assert.equal(reply.status, status, type);
      assert.equal(reply.text, type);
      assert.equal((seen.shift()?.error as { type?: string } | undefined)?.type, type);
    }
  });

  it('reads a gzip body in UTF-16 as the middleware does', async () => {
    const reply = await send(server, {
      method: 'POST',
      headers: { 'content-type': `${JSON_TYPE}; charset=utf-16le`, 'content-encoding': 'gzip' },
      body: gzipSync(iconv.encode('{"name":"论"}', 'utf-16le')),
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(seen.shift()?.body, { name: '论', admin: false });
  });
});

describe('read rejects with the error the middleware gives next', () => {
  const cases: Array<{
    name: string;
    parser: 'json' | 'text' | 'urlencoded' | 'raw';
    options: Record<string, unknown>;
    type: string;
    body: string | Buffer;
    headers?: Record<string, string>;
  }> = [
    { name: 'bad JSON', parser: 'json', options: {}, type: JSON_TYPE, body: '{"a":' },
    { name: 'strict mode', parser: 'json', options: {}, type: JSON_TYPE, body: '"s"' },
    {
      name: 'a prototype key',
      parser: 'json',
      options: {},
      type: JSON_TYPE,
      body: '{"__proto__":{}}',
    },
    {
      name: 'over the limit',
      parser: 'text',
      options: { limit: 4 },
      type: 'text/plain',
      body: 'hello',
    },
    {
      name: 'utf-7 JSON',
      parser: 'json',
      options: {},
      type: `${JSON_TYPE}; charset=utf-7`,
      body: '{}',
    },
    {
      name: 'a corrupt gzip body',
      parser: 'raw',
      options: {},
      type: 'application/octet-stream',
      body: Buffer.from('not gzip'),
      headers: { 'content-encoding': 'gzip' },
    },
    {
      name: 'too many parameters',
      parser: 'urlencoded',
      options: { parameterLimit: 2 },
      type: 'application/x-www-form-urlencoded',
      body: 'a=1&b=2&c=3',
    },
    {
      name: 'a verify that throws',
      parser: 'text',
      options: {
        verify: () => {
          throw Object.assign(new Error('bad signature'), { status: 401 });
        },
      },
      type: 'text/plain',
      body: 'x',
    },
  ];
  const shape = (err: unknown) => {
    const { stack: _stack, cause: _cause, ...own } = Object.getOwnPropertyDescriptors(err);
    return Object.fromEntries(Object.entries(own).map(([key, d]) => [key, d.value]));
  };
  for (const c of cases) {
    it(c.name, async () => {
      const factory = parsers[c.parser] as unknown as {
        (options: object): Middleware;
        read(req: http.IncomingMessage, options: object): Promise<unknown>;
      };
      const middleware = await exchange(factory(c.options), c.type, c.body, c.headers);
      const read = await exchange(
        readThen((req, res) => factory.read(req, { ...c.options, res })),
        c.type,
        c.body,
        c.headers,
      );
      const expected = middleware.outcome.error as { status: number; type: string };
      assert.ok(expected instanceof Error);
      const err = assertError(read, expected.status, expected.type, (expected as Error).message);
      assert.deepEqual(shape(err), shape(expected));
      assert.equal(Object.getPrototypeOf(err), Object.getPrototypeOf(expected));
    });
  }
});

describe('read', () => {
  for (const framework of frameworks) {
    it(`resolves to the body in any framework (${framework})`, async () => {
      const result = await exchange(
        readThen((req) => parsers.urlencoded.read(req, { extended: true })),
        'application/x-www-form-urlencoded',
        'a[b]=1&a[c][]=2',
        {},
        framework,
      );
      assertBody(result, { a: { b: '1', c: ['2'] } });
    });
  }

  for (const transport of ['https', 'h2', 'h2-http1'] as const) {
    it(`reads over ${transport}, a body without a length included where HTTP/2 allows it`, async () => {
      await withServer(
        readThen((req, res) => parsers.json.read(req, { res })),
        async (server) => {
          const reply = await send(server, {
            method: 'POST',
            headers: { 'content-type': JSON_TYPE },
            body: ['{"a":', '1}'],
            ...(transport === 'https'
              ? { headers: { 'content-type': JSON_TYPE, 'transfer-encoding': 'chunked' } }
              : {}),
          });
          assert.equal(reply.status, 200, reply.text);
          assert.deepEqual((await server.nextOutcome()).body, { a: 1 });
        },
        { transport },
      );
    });
  }

  it('gives text as a string and raw as a Buffer', async () => {
    const text = await exchange(
      readThen((req) => parsers.text.read(req)),
      'text/plain; charset=koi8-r',
      iconv.encode('привет', 'koi8-r'),
    );
    assertBody(text, 'привет');
    const raw = await exchange(
      readThen((req) => parsers.raw.read(req)),
      'application/octet-stream',
      'ab',
    );
    assertBody(raw, Buffer.from('ab'));
  });

  it('reads a request without a body as an empty body, whatever its Content-Type', async () => {
    await withServer(
      readThen((req) => parsers.json.read(req)),
      async (server) => {
        const head = rawHead('POST', '/', { 'Content-Type': 'text/plain' });
        const reply = await sendRaw(server, [head], { timeoutMs: 300 });
        assert.equal(reply.status, 200);
        assert.deepEqual((await server.nextOutcome()).body, {});
      },
    );
    await withServer(
      readThen((req) => parsers.text.read(req)),
      async (server) => {
        assert.equal((await send(server, { method: 'GET' })).text, '""');
      },
    );
  });

  it('refuses a Content-Type its type does not match: 415 media.type.unsupported, once the body is drained', async () => {
    const result = await exchange(
      readThen((req) => parsers.json.read(req)),
      'text/plain',
      '{"a":1}',
    );
    assertError(result, 415, 'media.type.unsupported', 'unsupported media type "text/plain"', {
      mediaType: 'text/plain',
    });
    const none = await exchange(
      readThen((req) => parsers.json.read(req)),
      undefined,
      '{}',
    );
    assertError(none, 415, 'media.type.unsupported', 'unsupported media type ""');
  });

  it('reads any Content-Type its type accepts, a function included', async () => {
    const result = await exchange(
      readThen((req) => parsers.json.read(req, { type: () => true })),
      'text/plain',
      '{"a":1}',
    );
    assertBody(result, { a: 1 });
  });

  it('rejects with what a type function throws', async () => {
    const refusal = new Error('no');
    const result = await exchange(
      readThen((req) =>
        parsers.json.read(req, {
          type: () => {
            throw refusal;
          },
        }),
      ),
      JSON_TYPE,
      '{}',
    );
    assert.equal(result.outcome.error, refusal);
  });

  it('refuses a body a parser already read: 500 stream.not.readable, req.body untouched', async () => {
    const result = await exchange(
      [parsers.json(), readThen((req) => parsers.json.read(req))],
      JSON_TYPE,
      '{"a":1}',
    );
    assertError(result, 500, 'stream.not.readable', 'stream is not readable');
    assert.deepEqual(result.outcome.body, { a: 1 });
  });

  it('refuses a body read twice, and one read in part by something else', async () => {
    const twice = await exchange(
      readThen(async (req) => {
        await parsers.text.read(req);
        return parsers.text.read(req);
      }),
      'text/plain',
      'once',
    );
    assertError(twice, 500, 'stream.not.readable', 'stream is not readable');
    const partly: Middleware = (req, _res, next) => {
      req.once('data', () => {
        req.pause();
        next();
      });
    };
    const result = await exchange(
      [partly, readThen((req) => parsers.text.read(req))],
      'text/plain',
      ['first ', 'second'],
      { 'transfer-encoding': 'chunked' },
    );
    assertError(result, 500, 'stream.not.readable', 'stream is not readable');
  });

  it('refuses a request whose client left before read was called: 400 request.aborted', async () => {
    let settled: Promise<unknown> = Promise.resolve();
    const server = await serve((req) => {
      req.once('close', () => {
        settled = parsers.text.read(req).then(
          () => undefined,
          (err: unknown) => err,
        );
      });
    });
    try {
      await sendPartial(server, {
        headers: { 'content-type': 'text/plain', 'content-length': 100 },
        body: ['part'],
        abortAfterMs: 20,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const err = (await settled) as { type?: string; status?: number };
      assert.equal(err.type, 'request.aborted');
      assert.equal(err.status, 400);
    } finally {
      await server.close();
    }
  });

  it('passes verify the response given as res, or Express’s req.res, or undefined', async () => {
    const seen: unknown[] = [];
    const verify = (_req: unknown, res: unknown) => {
      seen.push(res === undefined ? 'none' : typeof (res as http.ServerResponse).setHeader);
    };
    await exchange(
      readThen((req, res) => parsers.text.read(req, { verify, res })),
      'text/plain',
      'x',
    );
    await exchange(
      readThen((req) => parsers.text.read(req, { verify })),
      'text/plain',
      'x',
    );
    await exchange(
      readThen((req) => parsers.text.read(req, { verify })),
      'text/plain',
      'x',
      {},
      'express5',
    );
    assert.deepEqual(seen, ['function', 'none', 'function']);
  });

  it('keeps the raw bytes in req.rawBody with rawBody: true', async () => {
    let raw: unknown;
    await exchange(
      readThen(async (req) => {
        const body = await parsers.json.read(req, { rawBody: true });
        raw = (req as { rawBody?: unknown }).rawBody;
        return body;
      }),
      JSON_TYPE,
      '{ "a" : 1 }',
    );
    assert.deepEqual(raw, Buffer.from('{ "a" : 1 }'));
  });

  // A body announced 4 MiB long, of which a few bytes come: over the limit and more than drain
  // reads off (1 MiB), it is given up on at once.
  const announced = rawHead('POST', '/', {
    'Content-Type': JSON_TYPE,
    'Content-Length': 4 * 1024 * 1024,
  });

  it('closes the connection after the answer when it gives up on a body, given the response', async () => {
    await withServer(
      readThen((req, res) => parsers.json.read(req, { limit: 10, res })),
      async (server) => {
        const reply = await sendRaw(server, [announced, '{"a":'], { timeoutMs: 1000 });
        assert.equal(reply.status, 413);
        assert.match(reply.raw, /\r\nConnection: close\r\n/i);
        assert.equal(reply.ended, 'closed');
        await server.nextOutcome();
      },
    );
  });

  it('answers a body it gives up on without the response too, on a connection it cannot close', async () => {
    await withServer(
      readThen((req) => parsers.json.read(req, { limit: 10 })),
      async (server) => {
        const reply = await sendRaw(server, [announced, '{"a":'], { timeoutMs: 500 });
        assert.equal(reply.status, 413);
        assert.match(reply.raw, /entity\.too\.large/);
        assert.equal(reply.ended, 'timeout');
        await server.nextOutcome();
      },
    );
  });

  it('rejects bad options and a missing request instead of throwing', async () => {
    const pending = parsers.json.read({} as http.IncomingMessage);
    await assert.rejects(pending, { name: 'TypeError', message: /read needs the request/ });
    await withServer(
      readThen((req) => parsers.json.read(req, { limit: 'lots' })),
      async (server) => {
        await send(server, { method: 'POST', headers: { 'content-type': JSON_TYPE }, body: '{}' });
        const { error } = await server.nextOutcome();
        assert.ok(error instanceof TypeError);
        assert.equal(error.message, 'option limit "lots" is invalid');
      },
    );
  });
});
