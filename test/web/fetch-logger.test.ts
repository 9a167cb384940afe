// fetchLogger: when the line of a fetch handler's request is written, what it says of a
// handler that throws, and what options, tokens and the address get on this door.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Hono } from 'hono';
import { recordError } from '../../src/index.js';
import { fetchLogger, logger } from '../../src/logger/index.js';
import type { FetchLogRequest, FetchLogResponse, FetchTokenFn } from '../../src/logger/types.js';
import { type FetchAdapter, fetchAdapters, piecesUntil, serveFetch } from '../helpers/fetch.js';
import { captureLines, type LineCapture, send } from '../helpers/index.js';
import { fixTime } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

/** A promise and the function that settles it. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** GET `path` with Node's client; resolves with the response once its head is in. */
function headOf(origin: string, path: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get(new URL(path, origin), resolve).on('error', reject);
  });
}

/** The next piece of a response's body. */
function nextPiece(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())));
}

async function withServer(
  handler: (request: Request, ...rest: never[]) => Response | Promise<Response>,
  use: (origin: string) => Promise<void>,
  adapter: FetchAdapter = 'node-server',
): Promise<void> {
  const server = await serveFetch(handler, adapter);
  try {
    await use(server.origin);
  } finally {
    await server.close();
  }
}

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime(1.5);
});
afterEach(() => undo());

describe('fetchLogger writes the line when the body is done', () => {
  for (const adapter of fetchAdapters) {
    it(`waits for the last piece of a streamed body, then counts all its bytes (${adapter})`, async () => {
      const capture = captureLines();
      const last = gate();
      const log = fetchLogger(':status :res-body-bytes :total-time', { stream: capture.stream });
      await withServer(
        log((_request: Request) => new Response(piecesUntil(last.promise))),
        async (origin) => {
          const res = await headOf(origin, '/');
          assert.equal(await nextPiece(res), 'first,');
          // The head and a piece are out, the body is not: no line yet.
          assert.deepEqual(capture.lines, []);
          last.open();
          res.resume();
          // Arrival, head and line each read the fixed clock once: 3 ms from arrival.
          assert.deepEqual(await capture.waitFor(1), ['200 10 3.000']);
        },
        adapter,
      );
    });

    it(`writes the line of a body the client stopped reading, with no size (${adapter})`, async () => {
      const capture = captureLines();
      const cancelled = gate();
      const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
      await withServer(
        log(
          (_request: Request) =>
            new Response(piecesUntil(new Promise(() => {}), () => cancelled.open())),
        ),
        async (origin) => {
          const res = await headOf(origin, '/');
          await nextPiece(res);
          res.destroy();
          await cancelled.promise;
          assert.deepEqual(await capture.waitFor(1), ['200 -']);
        },
        adapter,
      );
    });
  }

  it('writes the line of a response without a body at once, its size 0', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    const response = await log((_request: Request) => new Response(null, { status: 204 }))(
      new Request('http://localhost/'),
    );
    assert.equal(response.status, 204);
    assert.deepEqual(capture.lines, ['204 0']);
  });

  it('keeps the status, status text and headers of the Response it watches', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    const response = await log(
      (_request: Request) =>
        new Response('teapot', {
          status: 418,
          statusText: 'I am a teapot',
          headers: { 'content-length': '6', 'x-kept': 'yes' },
        }),
    )(new Request('http://localhost/'));
    assert.deepEqual(
      [response.status, response.statusText, response.headers.get('x-kept')],
      [418, 'I am a teapot', 'yes'],
    );
    assert.equal(await response.text(), 'teapot');
  });

  for (const adapter of fetchAdapters) {
    it(`leaves a known length announced: Content-Length, not chunked (${adapter})`, async () => {
      const capture = captureLines();
      const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
      await withServer(
        log((_request: Request) => new Response('hello', { headers: { 'content-length': '5' } })),
        async (origin) => {
          const reply = await send({ origin, transport: 'http' } as never, { path: '/' });
          assert.equal(reply.headers['content-length'], '5');
          assert.equal(reply.headers['transfer-encoding'], undefined);
          assert.equal(reply.text, 'hello');
        },
        adapter,
      );
    });
  }
});

/** Whether this Node keeps a Response's body length where it can be read (undici in 20, 22). */
const readableLength = Number(process.versions.node.split('.')[0]) < 24;

describe('fetchLogger and a body whose size is known without its stream', () => {
  it('hands on a Response with a Content-Length untouched, its line written at once', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    const response = new Response(piecesUntil(new Promise(() => {})), {
      headers: { 'content-length': '10' },
    });
    const returned = await log((_request: Request) => response)(new Request('http://localhost/'));
    assert.equal(returned, response);
    assert.deepEqual(capture.lines, ['200 10']);
  });

  it('hands on a Response made from a string untouched, its size in the json line', {
    skip: readableLength ? false : 'Node 24 and later keep the length in private fields',
  }, async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream });
    const response = new Response('héllo wörld');
    const returned = await log((_request: Request) => response)(new Request('http://localhost/'));
    assert.equal(returned, response);
    const [line] = capture.lines;
    assert.equal(JSON.parse(`${line}`)['http.response.body.size'], 13);
  });

  for (const adapter of fetchAdapters) {
    it(`sends a Response made from a string framed as without the logger, json (${adapter})`, async () => {
      const framing = async (handler: (request: Request) => Response) => {
        let head: [unknown, unknown] = [undefined, undefined];
        await withServer(
          handler,
          async (origin) => {
            const reply = await send({ origin, transport: 'http' } as never, { path: '/' });
            assert.equal(reply.text, 'hello world');
            head = [reply.headers['content-length'], reply.headers['transfer-encoding']];
          },
          adapter,
        );
        return head;
      };
      const log = fetchLogger('json', { stream: captureLines().stream });
      const bare = await framing(() => new Response('hello world'));
      assert.deepEqual(await framing(log(() => new Response('hello world'))), bare);
      // @hono/node-server announces the length of a string body; srvx streams a Response it
      // did not make itself.
      if (adapter === 'node-server') assert.deepEqual(bare, ['11', undefined]);
    });
  }
});

describe('fetchLogger with a format that reads nothing of the delivery', () => {
  it('hands on the Response the handler returned, untouched', async () => {
    const capture = captureLines();
    const log = fetchLogger('combined', { stream: capture.stream });
    const response = new Response(piecesUntil(new Promise(() => {})));
    const returned = await log((_request: Request) => response)(new Request('http://localhost/'));
    assert.equal(returned, response);
  });

  for (const adapter of fetchAdapters) {
    it(`writes the line when the Response comes, before its body ends (${adapter})`, async () => {
      const capture = captureLines();
      const last = gate();
      const log = fetchLogger(':method :url :status :res[content-type]', {
        stream: capture.stream,
      });
      await withServer(
        log(
          (_request: Request) =>
            new Response(piecesUntil(last.promise), { headers: { 'content-type': 'text/x' } }),
        ),
        async (origin) => {
          const res = await headOf(origin, '/a');
          assert.equal(await nextPiece(res), 'first,');
          assert.deepEqual(capture.lines, ['GET /a 200 text/x']);
          last.open();
          res.resume();
        },
        adapter,
      );
    });
  }

  it('waits for the delivery when a skip function is given', async () => {
    const capture = captureLines();
    const last = gate();
    const log = fetchLogger('tiny', { stream: capture.stream, skip: () => false });
    await withServer(
      log((_request: Request) => new Response(piecesUntil(last.promise))),
      async (origin) => {
        const res = await headOf(origin, '/');
        await nextPiece(res);
        assert.deepEqual(capture.lines, []);
        last.open();
        res.resume();
        assert.equal((await capture.waitFor(1)).length, 1);
      },
    );
  });
});

describe('fetchLogger and a handler that throws', () => {
  it('logs 500 with the error type, and rethrows the error', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :error-type', { stream: capture.stream });
    const thrown = new TypeError('no such thing');
    const handler = log(async (_request: Request) => {
      throw thrown;
    });
    await assert.rejects(handler(new Request('http://localhost/')), (err) => err === thrown);
    assert.deepEqual(capture.lines, ['500 TypeError']);
  });

  it('logs and rethrows what a synchronous handler throws, synchronously', () => {
    const capture = captureLines();
    const log = fetchLogger(':status', { stream: capture.stream });
    const handler = log((_request: Request): Response => {
      throw new RangeError('sync');
    });
    assert.throws(() => handler(new Request('http://localhost/')), RangeError);
    assert.deepEqual(capture.lines, ['500']);
  });

  it('logs a Response whose body was already read at once, and hands it on as it is', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    const used = new Response('read already');
    await used.text();
    const response = await log(async (_request: Request) => used)(new Request('http://localhost/'));
    assert.equal(response, used);
    assert.deepEqual(capture.lines, ['200 -']);
  });

  it('returns the Response of a synchronous handler synchronously', () => {
    const log = fetchLogger(':status', { stream: captureLines().stream });
    const response = log((_request: Request) => new Response(null))(
      new Request('http://localhost/'),
    );
    assert.ok(response instanceof Response);
  });
});

describe('fetchLogger options and tokens', () => {
  it('writes the line on arrival with immediate, before the handler answers', async () => {
    const capture = captureLines();
    const answer = gate();
    const log = fetchLogger(':method :url :status', { stream: capture.stream, immediate: true });
    const pending = log(async (_request: Request) => {
      await answer.promise;
      return new Response('late');
    })(new Request('http://localhost/now?x=1'));
    assert.deepEqual(capture.lines, ['GET /now?x=1 -']);
    answer.open();
    assert.equal(await (await pending).text(), 'late');
    assert.equal(capture.lines.length, 1);
  });

  it('skips what skip(req, res) says to, given the views', async () => {
    const capture = captureLines();
    const seen: Array<[string, number]> = [];
    const log = fetchLogger(':url :status', {
      stream: capture.stream,
      skip: (req, res) => {
        seen.push([req.url, res.statusCode]);
        return res.statusCode < 400;
      },
    });
    const handler = log((request: Request) =>
      request.url.endsWith('/bad') ? new Response(null, { status: 400 }) : new Response(null),
    );
    handler(new Request('http://localhost/good'));
    handler(new Request('http://localhost/bad'));
    assert.deepEqual(seen, [
      ['/good', 200],
      ['/bad', 400],
    ]);
    assert.deepEqual(capture.lines, ['/bad 400']);
  });

  it("logs :url as the path and query of the Request's URL, whatever its form", () => {
    const capture = captureLines();
    const log = fetchLogger(':url', { stream: capture.stream });
    const handler = log((_request: Request) => new Response(null));
    // Adapters may hand over a Request-like object whose URL the parser did not write.
    for (const url of [
      'http://h/a/b?c=/d',
      'https://h:8443',
      'http://h?x/y',
      'http://h#x/y',
      'ws://h/w',
    ]) {
      handler({ url, method: 'GET', headers: new Headers() } as Request);
    }
    assert.deepEqual(capture.lines, ['/a/b?c=/d', '/', '?x/y', '#x/y', '/w']);
  });

  it("gives a format function the request's headers as node:http keys them", () => {
    const capture = captureLines();
    const log = fetchLogger(
      (_tokens, req: FetchLogRequest) =>
        JSON.stringify([
          req.headers['x-b'],
          req.headers['X-B'],
          'x-a' in req.headers,
          'x-none' in req.headers,
          req.headers['bad name'],
          req.headers,
          Object.keys(req.headers),
        ]),
      { stream: capture.stream },
    );
    const headers = new Headers([
      ['X-B', '2'],
      ['x-a', '1'],
      ['x-a', '3'],
    ]);
    log((_request: Request) => new Response(null))(new Request('http://localhost/', { headers }));
    assert.deepEqual(JSON.parse(capture.lines[0] as string), [
      '2',
      null,
      true,
      false,
      null,
      { 'x-a': '1, 3', 'x-b': '2' },
      ['x-a', 'x-b'],
    ]);
  });

  it('hands custom tokens the request and response views, with the Web objects on them', () => {
    const capture = captureLines();
    const seen: unknown[] = [];
    const viewToken: FetchTokenFn = (req, res) => {
      seen.push(req.request.headers.get('x-one'), res.response?.headers.get('x-two'));
      return `${req.method} ${req.url} ${req.headers['x-one']} ${res.getHeader('x-two')} ${req.httpVersionMajor}.${req.httpVersionMinor}`;
    };
    logger.token('fetch-view', viewToken);
    const log = fetchLogger(':fetch-view', { stream: capture.stream });
    const request = new Request('http://localhost/a/b?c=d', { headers: { 'X-One': '1' } });
    log((_request: Request) => new Response(null, { headers: { 'X-Two': '2' } }))(request);
    assert.deepEqual(seen, ['1', '2']);
    assert.deepEqual(capture.lines, ['GET /a/b?c=d 1 2 1.1']);
  });

  it("makes a streamed body's line in the context the handler was called in", async () => {
    const capture = captureLines();
    const store = new AsyncLocalStorage<string>();
    const log = fetchLogger(
      (tokens, req, res) => `${tokens.status(req, res)} ${store.getStore()}`,
      {
        stream: capture.stream,
      },
    );
    const last = gate();
    const handler = log((_request: Request) => new Response(piecesUntil(last.promise)));
    const response = await store.run('request-7', () => handler(new Request('http://localhost/')));
    last.open();
    assert.equal(await response.text(), 'first,last');
    assert.deepEqual(await capture.waitFor(1), ['200 request-7']);
  });

  it('gives format functions the views and the same tokens', () => {
    const capture = captureLines();
    const log = fetchLogger(
      (tokens, req: FetchLogRequest, res: FetchLogResponse) =>
        `${tokens.method(req, res)} ${tokens.status(req, res)} ${req.request.url}`,
      { stream: capture.stream },
    );
    log((_request: Request) => new Response(null, { status: 202 }))(
      new Request('http://localhost/x'),
    );
    assert.deepEqual(capture.lines, ['GET 202 http://localhost/x']);
  });

  it('reports an error recorded on the Web Request in :error-type and :error-message', () => {
    const capture = captureLines();
    const log = fetchLogger(':status :error-type :error-message', { stream: capture.stream });
    log((request: Request) => {
      recordError(request, Object.assign(new Error('too big'), { type: 'entity.too.large' }));
      return new Response(null, { status: 413 });
    })(new Request('http://localhost/', { method: 'POST' }));
    assert.deepEqual(capture.lines, ['413 entity.too.large too big']);
  });

  it('masks secrets as the Node middleware does', () => {
    const capture = captureLines();
    const log = fetchLogger(':url :req[authorization]', { stream: capture.stream });
    log((_request: Request) => new Response(null))(
      new Request('http://localhost/?api_key=s3cret&page=2', {
        headers: { authorization: 'Bearer abc' },
      }),
    );
    assert.deepEqual(capture.lines, ['/?api_key=REDACTED&page=2 Bearer [REDACTED]']);
  });

  it('keeps a valid incoming request id with requestId, logs it and sends it back', async () => {
    const capture = captureLines();
    const log = fetchLogger(':request-id', { stream: capture.stream, requestId: true });
    const response = await log((_request: Request) => new Response('ok'))(
      new Request('http://localhost/', { headers: { 'x-request-id': 'checkout-7f3a' } }),
    );
    assert.equal(response.headers.get('x-request-id'), 'checkout-7f3a');
    await response.text();
    assert.deepEqual(capture.lines, ['checkout-7f3a']);
  });

  it('gives a request whose id is malformed a new UUID, with requestId', () => {
    const capture = captureLines();
    const log = fetchLogger(':request-id', {
      stream: capture.stream,
      requestId: { header: 'x-correlation-id' },
    });
    const response = log((_request: Request) => new Response(null))(
      new Request('http://localhost/', { headers: { 'x-correlation-id': '../etc' } }),
    );
    const id = response.headers.get('x-correlation-id');
    assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(capture.lines, [id]);
  });

  it('gives no request id without the requestId option', () => {
    const capture = captureLines();
    const log = fetchLogger(':request-id', { stream: capture.stream });
    const response = log((_request: Request) => new Response(null))(
      new Request('http://localhost/', { headers: { 'x-request-id': 'abc' } }),
    );
    assert.equal(response.headers.get('x-request-id'), null);
    assert.deepEqual(capture.lines, ['-']);
  });

  it('serves and logs the request when remoteAddress throws, its address "-", one warning', async () => {
    const capture = captureLines();
    const log = fetchLogger(':remote-addr :status', {
      stream: capture.stream,
      remoteAddress: () => {
        throw new Error('no address here');
      },
    });
    const response = log((_request: Request) => new Response(null))(
      new Request('http://localhost/'),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(capture.lines, ['- 200']);
    assert.equal((await warnings.of('HTTPWARE_LOGGER_ADDRESS')).length, 1);
  });

  it('refuses a remoteAddress option that is not a function', () => {
    assert.throws(
      () => fetchLogger('tiny', { remoteAddress: 'x' as never }),
      /option remoteAddress must be a function/,
    );
  });
});

describe('fetchLogger and the client address', () => {
  function addressLine(
    rest: readonly unknown[],
    request = new Request('http://localhost/'),
    options = {},
  ): string | undefined {
    const capture = captureLines();
    const log = fetchLogger(':remote-addr', { stream: capture.stream, ...options });
    (
      log((_request: Request) => new Response(null)) as (
        request: Request,
        ...rest: unknown[]
      ) => Response
    )(request, ...rest);
    return capture.lines[0];
  }

  for (const adapter of fetchAdapters) {
    it(`is the socket's address on ${adapter}`, async () => {
      const capture = captureLines();
      const log = fetchLogger(':remote-addr', { stream: capture.stream });
      await withServer(
        log((_request: Request) => new Response(null)),
        async (origin) => {
          await send({ origin, transport: 'http' } as never, { path: '/' });
          assert.deepEqual(await capture.waitFor(1), ['127.0.0.1']);
        },
        adapter,
      );
    });
  }

  it("is Bun's server.requestIP(request)", () => {
    const request = new Request('http://localhost/');
    const server = { requestIP: (r: Request) => (r === request ? { address: '10.1.2.3' } : null) };
    assert.equal(addressLine([server], request), '10.1.2.3');
  });

  it("is Deno's info.remoteAddr.hostname", () => {
    assert.equal(addressLine([{ remoteAddr: { hostname: '10.4.5.6', port: 1 } }]), '10.4.5.6');
  });

  it('is what the remoteAddress option returns, given the handler arguments', () => {
    const env = { ip: '10.7.8.9' };
    const line = addressLine([env], undefined, {
      remoteAddress: (_request: Request, given: unknown) => (given as typeof env).ip,
    });
    assert.equal(line, '10.7.8.9');
  });
});

describe('fetchLogger in Hono', () => {
  function app(capture: LineCapture): Hono {
    const hono = new Hono();
    hono.use(
      fetchLogger(':remote-addr :method :url :status :res-body-bytes', { stream: capture.stream })
        .middleware,
    );
    hono.get('/hello', (c) => c.text('hello'));
    hono.get('/boom', () => {
      throw new Error('boom');
    });
    return hono;
  }

  it('logs through app.use(log.middleware), the body counted once delivered', async () => {
    const capture = captureLines();
    await withServer(app(capture).fetch, async (origin) => {
      await send({ origin, transport: 'http' } as never, { path: '/hello?x=1' });
      await send({ origin, transport: 'http' } as never, { path: '/nowhere' });
      assert.deepEqual(await capture.waitFor(2), [
        '127.0.0.1 GET /hello?x=1 200 5',
        '127.0.0.1 GET /nowhere 404 13',
      ]);
    });
  });

  it("logs the 500 Hono's error handler answers a throwing route with", async () => {
    const capture = captureLines();
    const hono = app(capture);
    hono.onError((_err, c) => c.text('failed', 500));
    const response = await hono.fetch(new Request('http://localhost/boom'));
    assert.equal(await response.text(), 'failed');
    assert.deepEqual(await capture.waitFor(1), ['- GET /boom 500 6']);
  });

  it('logs a wrapped app.fetch', async () => {
    const capture = captureLines();
    const hono = new Hono();
    hono.get('/', (c) => c.json({ ok: true }));
    const log = fetchLogger(':status :res[content-type]', { stream: capture.stream });
    await withServer(log(hono.fetch), async (origin) => {
      await send({ origin, transport: 'http' } as never, { path: '/' });
      assert.deepEqual(await capture.waitFor(1), ['200 application/json']);
    });
  });
});
