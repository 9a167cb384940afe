import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { isHttp2, type TestServer } from './server.js';

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

export interface SendOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string | number | readonly string[]>;
  /** Sent as is; an array is written chunk by chunk (with `chunkDelayMs` between chunks). */
  body?: string | Buffer | ReadonlyArray<string | Buffer>;
  chunkDelayMs?: number;
  /** Basic auth as `user:password`. */
  auth?: string;
  /** Reject when no complete response came by then (default SEND_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The protocol to speak: HTTP/2 (`h2`) by default to an `h2` or `h2-http1` server, HTTP/1.1
   * otherwise; `http1` reaches an `h2-http1` server over HTTP/1.1 (TLS, ALPN `http/1.1`).
   */
  protocol?: 'http1' | 'h2';
}

/** How long `send` waits for a whole response before failing: a hang becomes an error. */
export const SEND_TIMEOUT_MS = 10_000;

/** What `send` needs of a server: where it is and what it speaks (a TestServer, a WebServer). */
export type Target = Pick<TestServer, 'origin' | 'transport'>;

/**
 * One request with Node's own client: no automatic headers besides Host and Connection, no
 * keep-alive between tests. A body given as a string or Buffer gets a Content-Length unless
 * the test sets its own length or transfer-encoding header.
 */
export function send(server: Target, options: SendOptions = {}): Promise<Reply> {
  const h2Server = isHttp2(server.transport);
  if ((options.protocol ?? (h2Server ? 'h2' : 'http1')) === 'h2') return sendH2(server, options);
  const url = new URL(options.path ?? '/', server.origin);
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string | number | readonly string[]> = { ...options.headers };
  const body = options.body;
  const lowerNames = Object.keys(headers).map((k) => k.toLowerCase());
  if (
    (typeof body === 'string' || Buffer.isBuffer(body)) &&
    !lowerNames.includes('content-length') &&
    !lowerNames.includes('transfer-encoding')
  ) {
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: headers as http.OutgoingHttpHeaders,
        agent: false,
        rejectUnauthorized: false,
        ...(options.auth === undefined ? {} : { auth: options.auth }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const buffer = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: buffer,
            text: buffer.toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
    const timer = setTimeout(() => {
      const err = new Error(
        `send: no complete response to ${req.method} ${req.path} in ${timeoutMs} ms`,
      );
      reject(err);
      req.destroy(err);
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    void (async () => {
      if (Array.isArray(body)) {
        for (const chunk of body as ReadonlyArray<string | Buffer>) {
          req.write(chunk);
          if (options.chunkDelayMs) await delay(options.chunkDelayMs);
        }
        req.end();
      } else {
        req.end(body as string | Buffer | undefined);
      }
    })();
  });
}

/**
 * One request over HTTP/2 with node:http2's client, on a session of its own that is closed
 * once the response ended. HTTP/2 has no Transfer-Encoding: a body given as an array goes
 * without a Content-Length (unless the test sets one), as a streaming HTTP/2 client sends it.
 */
function sendH2(server: Target, options: SendOptions): Promise<Reply> {
  const headers: http2.OutgoingHttpHeaders = { ...options.headers } as http2.OutgoingHttpHeaders;
  const body = options.body;
  const names = Object.keys(headers).map((k) => k.toLowerCase());
  if ((typeof body === 'string' || Buffer.isBuffer(body)) && !names.includes('content-length')) {
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (options.auth !== undefined) {
    headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  }
  headers[':method'] = options.method ?? (body === undefined ? 'GET' : 'POST');
  headers[':path'] = options.path ?? '/';
  return new Promise((resolve, reject) => {
    const session = http2.connect(server.origin, { rejectUnauthorized: false });
    const fail = (err: Error) => {
      clearTimeout(timer);
      session.destroy();
      reject(err);
    };
    session.on('error', fail);
    const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
    const timer = setTimeout(
      () =>
        fail(
          new Error(`send: no complete HTTP/2 response to ${headers[':path']} in ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    const stream = session.request(headers, { endStream: body === undefined });
    stream.on('error', fail);
    let responseHeaders: http2.IncomingHttpHeaders = {};
    stream.on('response', (received) => {
      responseHeaders = received;
    });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      clearTimeout(timer);
      session.close();
      const buffer = Buffer.concat(chunks);
      resolve({
        status: Number(responseHeaders[':status'] ?? 0),
        headers: responseHeaders as http.IncomingHttpHeaders,
        body: buffer,
        text: buffer.toString('utf8'),
      });
    });
    if (body === undefined) return;
    void (async () => {
      if (Array.isArray(body)) {
        for (const chunk of body as ReadonlyArray<string | Buffer>) {
          if (stream.destroyed) return;
          stream.write(chunk);
          if (options.chunkDelayMs) await delay(options.chunkDelayMs);
        }
        stream.end();
      } else {
        stream.end(body as string | Buffer);
      }
    })();
  });
}

export interface RawReply {
  /** Everything the server wrote before it closed the socket or the timeout ran out. */
  readonly raw: string;
  /** The status code of the first response, or 0 when none came. */
  readonly status: number;
  /** How the exchange ended: the server closed the socket, or the client stopped waiting. */
  readonly ended: 'closed' | 'timeout';
}

export interface RawOptions {
  /** Pieces written one after another, `delayMs` apart. */
  delayMs?: number;
  /** Destroy the socket right after the last piece instead of waiting for the answer. */
  abort?: boolean;
  /** Stop waiting for the server after this long (default 2000 ms). */
  timeoutMs?: number;
}

/**
 * Writes exactly the given bytes to a TCP socket: for input a well-behaved client cannot send
 * (a lying Content-Length, a body cut short, a malformed header). Resolves with what came back.
 */
export function sendRaw(
  server: Pick<TestServer, 'port'>,
  pieces: ReadonlyArray<string | Buffer>,
  options: RawOptions = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (ended: RawReply['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
      resolve({ raw, status: match ? Number(match[1]) : 0, ended });
    };
    const timer = setTimeout(() => done('timeout'), options.timeoutMs ?? 2000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => done('closed'));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset after the server answered is an ordinary end of the exchange.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') done('closed');
      else if (!settled) reject(err);
    });
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (options.delayMs) await delay(options.delayMs);
      }
      if (options.abort) done('closed');
    });
  });
}

/**
 * A client that pipelines a GET of each path on one keep-alive connection (one packet) and
 * destroys the connection `leaveAfterMs` later, before the server answered: every request but
 * the first is still queued behind the one before it when the connection closes.
 */
export async function pipelineThenLeave(
  server: Pick<TestServer, 'port'>,
  paths: readonly string[],
  leaveAfterMs = 10,
): Promise<void> {
  const heads = paths.map((path) => rawHead('GET', path, {})).join('');
  await sendRaw(server, [heads], { abort: true, delayMs: leaveAfterMs });
}

/** A raw HTTP/1.1 request head with the given headers, ending in the blank line. */
export function rawHead(
  method: string,
  path: string,
  headers: Record<string, string | number>,
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export interface PartialOptions {
  headers: Record<string, string | number>;
  /** Written one after another, `delayMs` apart; the request is never ended. */
  body: ReadonlyArray<string | Buffer>;
  delayMs?: number;
  /** Abort the request this long after the last piece. */
  abortAfterMs?: number;
  /**
   * How to abort. HTTP/2: `stream` resets the stream (RST_STREAM, the body never ended; not
   * `stream.close()`, which ends the body before it resets; its code is NO_ERROR, which
   * node:http2's server takes for the end of the body once the response is sent), `stream-error`
   * resets it with INTERNAL_ERROR, `connection` drops the session's socket. HTTP/1.1: all close
   * the connection. Default `stream`.
   */
  abort?: 'stream' | 'stream-error' | 'connection';
  /** Stop waiting for the server after this long (default 3000 ms). */
  timeoutMs?: number;
  protocol?: 'http1' | 'h2';
}

export interface PartialReply {
  /** The response's status, or 0 when none came. */
  readonly status: number;
  readonly text: string;
  /**
   * How the exchange ended: the server closed the connection (HTTP/1.1) or the stream
   * (HTTP/2), the client reset it (`abortAfterMs`), or the client stopped waiting.
   */
  readonly ended: 'closed' | 'aborted' | 'timeout';
  /** HTTP/2: the code of the RST_STREAM that closed the stream (0: NO_ERROR). */
  readonly rstCode?: number;
}

/** The two clients sendPartial drives: write a piece, reset, and close everything. */
interface PartialClient {
  /** Settles once connected: a delay before the abort then counts from there. */
  readonly connected: Promise<unknown>;
  write(piece: string | Buffer): void;
  reset(): void;
  destroy(): void;
}

/**
 * A request whose body never ends: the head and some pieces, then either a reset from the
 * client (`abortAfterMs`) or a wait for what the server does with it. Speaks HTTP/2 to an h2
 * server unless told `protocol: 'http1'`, like `send`.
 */
export function sendPartial(server: TestServer, options: PartialOptions): Promise<PartialReply> {
  const h2Server = isHttp2(server.transport);
  const h2 = (options.protocol ?? (h2Server ? 'h2' : 'http1')) === 'h2';
  return new Promise((resolve) => {
    let status = 0;
    const chunks: Buffer[] = [];
    let settled = false;
    let aborting = false;
    const done = (rstCode?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.destroy();
      resolve({
        status,
        text: Buffer.concat(chunks).toString('utf8'),
        ended: timedOut ? 'timeout' : aborting ? 'aborted' : 'closed',
        ...(rstCode === undefined ? {} : { rstCode }),
      });
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      done();
    }, options.timeoutMs ?? 3000);
    const onStatus = (code: number) => {
      status = code;
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const client = h2
      ? partialH2(server, options, onStatus, onData, done)
      : partialHttp1(server, options.headers, onStatus, onData, done);
    void (async () => {
      await client.connected;
      for (const piece of options.body) {
        if (settled) return;
        client.write(piece);
        if (options.delayMs) await delay(options.delayMs);
      }
      if (options.abortAfterMs === undefined) return;
      await delay(options.abortAfterMs);
      if (settled) return;
      aborting = true;
      client.reset();
    })();
  });
}

function partialH2(
  server: TestServer,
  options: PartialOptions,
  onStatus: (status: number) => void,
  onData: (chunk: Buffer) => void,
  done: (rstCode?: number) => void,
): PartialClient {
  const session = http2.connect(server.origin, { rejectUnauthorized: false });
  session.on('error', () => done());
  const stream = session.request({ ...options.headers, ':method': 'POST', ':path': '/' });
  stream.on('response', (received) => onStatus(Number(received[':status'])));
  stream.on('data', onData);
  stream.on('error', () => {});
  stream.on('close', () => done(stream.rstCode));
  return {
    connected: once(session, 'connect').catch(() => {}),
    write: (piece) => {
      if (!stream.destroyed) stream.write(piece);
    },
    reset: () =>
      options.abort === 'connection'
        ? session.destroy()
        : stream.destroy(options.abort === 'stream-error' ? new Error('reset') : undefined),
    destroy: () => session.destroy(),
  };
}

function partialHttp1(
  server: TestServer,
  headers: Record<string, string | number>,
  onStatus: (status: number) => void,
  onData: (chunk: Buffer) => void,
  done: () => void,
): PartialClient {
  const client = server.origin.startsWith('https') ? https : http;
  const req = client.request(`${server.origin}/`, {
    method: 'POST',
    headers,
    agent: false,
    rejectUnauthorized: false,
  });
  req.on('response', (res) => {
    onStatus(res.statusCode ?? 0);
    res.on('data', onData);
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.on('close', () => done());
  req.flushHeaders();
  return {
    connected: new Promise((resolve) => {
      req.on('socket', (socket) => {
        if (!socket.connecting) resolve(undefined);
        else socket.once(client === https ? 'secureConnect' : 'connect', resolve);
      });
      req.on('close', resolve);
    }),
    write: (piece) => {
      if (!req.destroyed) req.write(piece);
    },
    reset: () => req.destroy(),
    destroy: () => req.destroy(),
  };
}
export interface AbandonOptions {
  path?: string;
  headers?: Record<string, string>;
  /**
   * When the client goes away: `'body'` after sending `sent` of a body announced longer (the
   * request is cut mid-body), `'head'` once the response's head arrived (cut mid-response).
   */
  when: 'body' | 'head';
  /** The start of the body sent before going away mid-body (default `'{"a":'`). */
  sent?: string;
  /** The protocol, as for `send`. */
  protocol?: 'http1' | 'h2';
}

/**
 * A real client that goes away before the exchange is complete: over HTTP/1.1 it destroys its
 * connection, over HTTP/2 it resets its stream (RST_STREAM CANCEL) and then closes the session.
 * Resolves once it has gone; what the server made of it is for the test to await.
 */
export function abandon(server: TestServer, options: AbandonOptions): Promise<void> {
  const h2Server = isHttp2(server.transport);
  const h2 = (options.protocol ?? (h2Server ? 'h2' : 'http1')) === 'h2';
  const sent = options.sent ?? '{"a":';
  const headers = {
    'content-type': 'application/json',
    ...options.headers,
    ...(options.when === 'body' ? { 'content-length': String(Buffer.byteLength(sent) + 100) } : {}),
  };
  const method = options.when === 'body' ? 'POST' : 'GET';
  const path = options.path ?? '/';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`abandon: no response head to ${path}`)),
      SEND_TIMEOUT_MS,
    );
    if (h2) {
      const session = http2.connect(server.origin, { rejectUnauthorized: false });
      session.on('error', () => undefined);
      const stream = session.request(
        { ...headers, ':method': method, ':path': path },
        { endStream: options.when === 'head' },
      );
      stream.on('error', () => undefined);
      const leave = () => {
        clearTimeout(timer);
        stream.close(http2.constants.NGHTTP2_CANCEL, () => {
          session.close();
          resolve();
        });
      };
      if (options.when === 'head') stream.on('response', leave);
      else stream.write(sent, () => setTimeout(leave, 20));
      return;
    }
    const url = new URL(path, server.origin);
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method, headers, agent: false, rejectUnauthorized: false });
    req.on('error', () => undefined);
    const leave = () => {
      clearTimeout(timer);
      req.destroy();
      resolve();
    };
    if (options.when === 'head') {
      req.on('response', leave);
      req.end();
    } else {
      req.write(sent, () => setTimeout(leave, 20));
    }
  });
}
