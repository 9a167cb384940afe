// A corpus of bad request bodies, each with the answer it must get, whichever door the request
// came in by: a Node `IncomingMessage` or a Web `Request` (on Node, Bun, Deno, workerd, Next).
// Runtime-neutral on purpose: the client side needs only `fetch` and `node:net`; the server side
// is one function, `handleBadBody`, that an application on any runtime calls with its request
// and the parsers it loaded. Both sides agree on the routes below (a path names a parser and
// its options), and the server answers every error as `toResponse` / `problemHandler` do
// (`application/problem+json`, the httpware type in `code`), so a case compares the status and
// the type on any server.

import net from 'node:net';

/** What a server answered, or, for a client that left, what the server recorded. */
export interface Answer {
  readonly status: number;
  /** httpware's error type (the problem's `code`), or `ok` for a parsed body. */
  readonly type: string;
}

/** The routes every server of the corpus serves: a parser and its options, by path. */
export const badBodyRoutes = {
  '/json': { parser: 'json', options: {} },
  '/json-1kb': { parser: 'json', options: { limit: '1kb' } },
  '/json-schema': { parser: 'json', options: { schema: 'id' } },
  '/urlencoded': { parser: 'urlencoded', options: { extended: true } },
  '/text': { parser: 'text', options: {} },
  '/raw': { parser: 'raw', options: {} },
} as const;

export type BadBodyPath = keyof typeof badBodyRoutes;

/**
 * `{ id: number }`, as a Standard Schema v1 validator written by hand, so the corpus needs no
 * schema library on any runtime.
 */
export const idSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'httpware-tests',
    validate(value: unknown) {
      const id = (value as { id?: unknown } | null)?.id;
      return typeof id === 'number'
        ? { value: { id } }
        : { issues: [{ message: 'id must be a number', path: ['id'] }] };
    },
  },
};

/** The part of `httpware/parsers` a corpus server uses (any runtime's copy of it). */
export interface CorpusParsers {
  readonly toResponse: (err: unknown) => Response;
  readonly json: { read(request: never, options?: never): Promise<unknown> };
  readonly urlencoded: { read(request: never, options?: never): Promise<unknown> };
  readonly text: { read(request: never, options?: never): Promise<unknown> };
  readonly raw: { read(request: never, options?: never): Promise<unknown> };
}

export type ParserName = 'json' | 'urlencoded' | 'text' | 'raw';

/** The parser and options a path names (with the schema in place), or null for another path. */
export function routeOf(path: string): { parser: ParserName; options: object } | null {
  if (!Object.hasOwn(badBodyRoutes, path)) return null;
  const route = badBodyRoutes[path as BadBodyPath];
  const options = 'schema' in route.options ? { schema: idSchema } : route.options;
  return { parser: route.parser, options };
}

/** What a corpus server recorded of each request, in order: a client that left has no answer. */
export const recorded: Answer[] = [];

/**
 * The server side for a Web `Request`: reads the body with the route's parser, answers the
 * body as JSON (`{ body }`, a Buffer as its length) or the error through `toResponse`, and
 * records the outcome (what `GET /outcomes` lists, for a client that left).
 */
export async function handleBadBody(request: Request, parsers: CorpusParsers): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path === '/outcomes') return Response.json(recorded.splice(0));
  const route = routeOf(path);
  if (route === null) return new Response('no such route', { status: 404 });
  try {
    const body = await parsers[route.parser].read(request as never, route.options as never);
    recorded.push({ status: 200, type: 'ok' });
    return Response.json({ body: bodyOf(body) });
  } catch (err) {
    const response = parsers.toResponse(err);
    recorded.push({ status: response.status, type: String((err as { type?: unknown }).type) });
    return response;
  }
}

/** A parsed body as JSON can carry it: a Buffer (raw) as its byte length. */
export function bodyOf(body: unknown): unknown {
  return body instanceof Uint8Array ? { bytes: body.byteLength } : body;
}

/** How a case is sent: by `fetch`, or as raw bytes on a socket (what fetch cannot send). */
type Sending =
  | {
      readonly by: 'fetch';
      readonly headers?: Readonly<Record<string, string>>;
      /** A string or bytes; `chunked`: sent as a stream, so without a Content-Length. */
      readonly body: string | Uint8Array;
      readonly chunked?: boolean;
    }
  | {
      readonly by: 'socket';
      readonly head: Readonly<Record<string, string | number>>;
      readonly body: string;
      /** The client leaves once the body's bytes are written, without waiting for an answer. */
      readonly leave: boolean;
    };

export interface BadBody {
  readonly name: string;
  readonly path: BadBodyPath;
  readonly send: Sending;
  /** The answer expected; for a client that left, what the server records. */
  readonly status: number;
  /** The error type; several when runtimes may differ (see the case). */
  readonly types: readonly string[];
}

const JSON_TYPE = { 'content-type': 'application/json' };

// 2 KB of JSON, over the 1 KB limit of /json-1kb.
const OVER_1KB = JSON.stringify({ pad: 'x'.repeat(2048) });

// A gzip header (RFC 1952: magic, deflate, no flags) followed by bytes that are no deflate data.
const CORRUPT_GZIP = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x03]);

export const badBodies: readonly BadBody[] = [
  {
    name: 'a Content-Type the parser does not take',
    path: '/json',
    send: { by: 'fetch', headers: { 'content-type': 'text/plain' }, body: '{"a":1}' },
    status: 415,
    types: ['media.type.unsupported'],
  },
  {
    name: 'no Content-Type at all',
    path: '/json',
    // Bytes, not a string: fetch gives a string body `text/plain` by itself.
    send: { by: 'fetch', headers: {}, body: new TextEncoder().encode('{"a":1}') },
    status: 415,
    types: ['media.type.unsupported'],
  },
  {
    name: 'a Content-Length over the limit',
    path: '/json-1kb',
    send: { by: 'fetch', headers: JSON_TYPE, body: OVER_1KB },
    status: 413,
    types: ['entity.too.large'],
  },
  {
    name: 'a chunked body growing over the limit',
    path: '/json-1kb',
    send: { by: 'fetch', headers: JSON_TYPE, body: OVER_1KB, chunked: true },
    status: 413,
    types: ['entity.too.large'],
  },
  {
    // node:http (and the servers built on it) wait for the bytes a Content-Length promised,
    // so a body shorter than announced is a client gone (request.aborted); a runtime that hands
    // the short body over is caught by the count (request.size.invalid). Never a parsed body.
    name: 'a Content-Length longer than the body',
    path: '/json',
    send: {
      by: 'socket',
      head: { 'Content-Type': 'application/json', 'Content-Length': 20 },
      body: '{"a":1}',
      leave: true,
    },
    status: 400,
    types: ['request.aborted', 'request.size.invalid'],
  },
  {
    name: 'a corrupt gzip body',
    path: '/json',
    send: {
      by: 'fetch',
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: CORRUPT_GZIP,
    },
    status: 400,
    types: ['entity.inflate.failed'],
  },
  {
    name: 'a content coding nobody decodes',
    path: '/json',
    send: { by: 'fetch', headers: { ...JSON_TYPE, 'content-encoding': 'x-unknown' }, body: '{}' },
    status: 415,
    types: ['encoding.unsupported'],
  },
  {
    name: 'a charset JSON does not take',
    path: '/json',
    send: {
      by: 'fetch',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      body: '{}',
    },
    status: 415,
    types: ['charset.unsupported'],
  },
  {
    name: 'a charset that does not exist',
    path: '/text',
    send: { by: 'fetch', headers: { 'content-type': 'text/plain; charset=no-such' }, body: 'hi' },
    status: 415,
    types: ['charset.unsupported'],
  },
  {
    name: 'malformed JSON',
    path: '/json',
    send: { by: 'fetch', headers: JSON_TYPE, body: '{"a":' },
    status: 400,
    types: ['entity.parse.failed'],
  },
  {
    name: 'a __proto__ key in JSON',
    path: '/json',
    send: { by: 'fetch', headers: JSON_TYPE, body: '{"__proto__":{"admin":true}}' },
    status: 400,
    types: ['entity.prototype.forbidden'],
  },
  {
    name: 'a body its schema refuses',
    path: '/json-schema',
    send: { by: 'fetch', headers: JSON_TYPE, body: '{"id":"seven"}' },
    status: 422,
    types: ['entity.validation.failed'],
  },
  {
    name: 'a client that leaves mid-body',
    path: '/json',
    send: {
      by: 'socket',
      head: { 'Content-Type': 'application/json', 'Content-Length': 100 },
      body: '{"a":',
      leave: true,
    },
    status: 400,
    types: ['request.aborted'],
  },
];

/** Where a corpus server listens. */
export interface Target {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
}

/**
 * Sends one case and returns the answer: the server's, or, for a client that leaves, the
 * outcome the server recorded (its `GET /outcomes`).
 */
export async function sendBadBody(target: Target, bad: BadBody): Promise<Answer> {
  const url = `${target.origin}${bad.path}`;
  if (bad.send.by === 'socket') {
    await outcomesOf(target); // what earlier cases left
    await leaveMidBody(target.origin, bad.path, bad.send.head, bad.send.body);
    return lastOutcome(target);
  }
  const { headers = {}, body, chunked = false } = bad.send;
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers,
    body: chunked ? streamOf(bytes) : bytes,
  };
  if (chunked) init.duplex = 'half';
  const response = await fetch(url, init);
  return answerOf(response);
}

/** What the server has recorded since it was last asked. */
async function outcomesOf(target: Target): Promise<Answer[]> {
  const response = await fetch(`${target.origin}/outcomes`);
  return (await response.json()) as Answer[];
}

/** The outcome of the request the server saw last, waiting up to 3 s for it to be recorded. */
async function lastOutcome(target: Target): Promise<Answer> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const outcomes = await outcomesOf(target);
    const last = outcomes[outcomes.length - 1];
    if (last !== undefined) return last;
    if (Date.now() > deadline) return { status: 0, type: 'nothing recorded' };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The status and type of a corpus server's answer. */
export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  if (response.ok) return { status: response.status, type: 'ok' };
  const problem = JSON.parse(text) as { code?: string };
  return { status: response.status, type: problem.code ?? 'none' };
}

/** The bytes as a stream of two chunks: fetch sends it chunked, with no Content-Length. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  const half = bytes.byteLength >> 1;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, half));
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
  });
}

/** Writes a head and part of a body on a raw socket, then leaves (destroys the socket). */
function leaveMidBody(
  origin: string,
  path: string,
  head: Readonly<Record<string, string | number>>,
  body: string,
): Promise<void> {
  const { hostname, port } = new URL(origin);
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${hostname}`];
  for (const [name, value] of Object.entries(head)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      // Long enough for the server to have started reading, then the client is gone.
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 50);
    });
    socket.on('error', reject);
  });
}
