import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import connect from 'connect';
import express5 from 'express';
import express4 from 'express4';
import { tlsCredentials } from './tls.js';

/** The (req, res, next) shape every framework here accepts. */
export type Middleware = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next: (err?: unknown) => void,
) => void;

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type Framework = 'http' | 'express4' | 'express5' | 'connect';

/** Every host the middleware must work inside; behaviour tests loop over this list. */
export const frameworks: readonly Framework[] = ['http', 'express4', 'express5', 'connect'];

/**
 * How the server speaks to its clients:
 * - `http`: node:http, HTTP/1.1 in the clear;
 * - `https`: node:https, HTTP/1.1 over TLS;
 * - `h2`: node:http2's compatibility API over TLS (`createSecureServer`), HTTP/2 only;
 * - `h2-http1`: the same with `allowHTTP1`, so one server answers HTTP/2 and HTTP/1.1 clients
 *   (`send` speaks HTTP/2 to it unless told `protocol: 'http1'`);
 * - `h2c`: node:http2's compatibility API in the clear (`createServer`), HTTP/2 only, as Koa
 *   and Fastify users serve it (`app.callback()`, `fastify({ http2: true })`).
 */
export type Transport = 'http' | 'https' | 'h2' | 'h2-http1' | 'h2c';

/** Whether a server of `transport` speaks HTTP/2 (to which `send` speaks HTTP/2 by default). */
export function isHttp2(transport: Transport): boolean {
  return transport === 'h2' || transport === 'h2-http1' || transport === 'h2c';
}

/**
 * Every transport the middleware must work over; protocol tests loop over this list (`h2c`
 * is `h2` without TLS: the same compatibility API, served to the frameworks that ask for it).
 */
export const transports: readonly Transport[] = ['http', 'https', 'h2', 'h2-http1'];

/**
 * Express 4 and 5 cannot serve node:http2's compatibility API (they replace the request's
 * prototype with one made from http.IncomingMessage, which drops Http2ServerRequest's own
 * accessors), so HTTP/2 runs in node:http and Connect.
 */
export function frameworksOver(transport: Transport): readonly Framework[] {
  return isHttp2(transport) ? ['http', 'connect'] : frameworks;
}

/** What the server saw for one request: the error passed to `next`, or the handler ran. */
export interface Outcome {
  readonly error: unknown;
  readonly body: unknown;
  readonly nextCalls: number;
}

export interface ServerOptions {
  framework?: Framework;
  /** Middleware run in order before the handler. */
  middleware?: readonly Middleware[];
  /** Answers the request once every middleware called `next()`; default: `describeBody`. */
  handler?: Handler;
  /**
   * `'text'` (default) answers an error as `[type] message` with the error's status, as
   * body-parser's own tests do; `'framework'` leaves it to the framework's default handler
   * (Express's finalhandler, Connect's), which is what an application without one sees.
   */
  errors?: 'text' | 'framework';
  /** Shorthand for `transport: 'https'`. */
  https?: boolean;
  /** Default `http` (or `https` with `https: true`). */
  transport?: Transport;
}

/** node:http's, node:https's or node:http2's server: what tests reach through `server`. */
export type AnyServer = http.Server | https.Server | http2.Http2SecureServer | http2.Http2Server;

export interface TestServer {
  readonly server: AnyServer;
  readonly port: number;
  /** `http://127.0.0.1:port`, or https for every TLS transport. */
  readonly origin: string;
  /** What the server speaks (`http` for servers made without a transport). */
  readonly transport: Transport;
  /**
   * Resolves with the next request's outcome, in arrival order; rejects when none comes within
   * `timeoutMs` (default OUTCOME_TIMEOUT_MS).
   */
  nextOutcome(timeoutMs?: number): Promise<Outcome>;
  close(): Promise<void>;
}

/** How long `nextOutcome` waits by default: longer than any bound the middleware applies. */
export const OUTCOME_TIMEOUT_MS = 5000;

/** `[type] message` for errors; JSON for parsed bodies; `buf:<hex>` for Buffers. */
export function describeBody(body: unknown): string {
  if (body === undefined) return 'undefined';
  if (Buffer.isBuffer(body)) return `buf:${body.toString('hex')}`;
  return JSON.stringify(body);
}

function describeError(err: unknown): { status: number; text: string } {
  const e = err as { status?: unknown; type?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : 500;
  return { status, text: `[${String(e.type)}] ${String(e.message)}` };
}

const defaultHandler: Handler = (req, res) => {
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(describeBody((req as { body?: unknown }).body));
};

/** A queue of outcomes, so a test can await what the server saw even when the client gave up. */
function outcomeQueue() {
  const ready: Outcome[] = [];
  const waiting: Array<(o: Outcome) => void> = [];
  return {
    push(outcome: Outcome) {
      const waiter = waiting.shift();
      if (waiter) waiter(outcome);
      else ready.push(outcome);
    },
    next(timeoutMs: number): Promise<Outcome> {
      const outcome = ready.shift();
      if (outcome) return Promise.resolve(outcome);
      return new Promise((resolve, reject) => {
        const waiter = (o: Outcome) => {
          clearTimeout(timer);
          resolve(o);
        };
        // A middleware that never calls `next` (nor answers) must fail the test, not hang it.
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`nextOutcome: the server saw no outcome in ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
  };
}

/**
 * Starts a real server on 127.0.0.1:0 running `middleware` then `handler` inside the chosen
 * framework. Each request's outcome (the error given to `next`, or the body the handler saw)
 * is recorded; `next` being called more than once is recorded too, so tests can assert
 * "exactly once".
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const framework = options.framework ?? 'http';
  const middleware = options.middleware ?? [];
  const handler = options.handler ?? defaultHandler;
  const errorMode = options.errors ?? 'text';
  const outcomes = outcomeQueue();

  // Wraps each middleware to count its `next` calls; the count lands in the outcome.
  const counted = (mw: Middleware, counter: { calls: number }): Middleware => {
    return (req, res, next) => {
      mw(req, res, (err?: unknown) => {
        counter.calls += 1;
        if (counter.calls > 1) {
          outcomes.push({
            error: new Error('next called more than once'),
            body: undefined,
            nextCalls: counter.calls,
          });
          return;
        }
        next(err);
      });
    };
  };

  const finish = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    err: unknown,
    calls: number,
  ) => {
    outcomes.push({ error: err, body: (req as { body?: unknown }).body, nextCalls: calls });
    if (err === undefined) {
      handler(req, res);
      return;
    }
    const { status, text } = describeError(err);
    res.statusCode = status;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(text);
  };

  let listener: http.RequestListener;
  if (framework === 'http') {
    listener = (req, res) => {
      const counter = { calls: 0 };
      let index = 0;
      const step = (err?: unknown): void => {
        const mw = middleware[index++];
        if (err !== undefined || mw === undefined) {
          finish(req, res, err, counter.calls);
          return;
        }
        counter.calls = 0;
        try {
          counted(mw, counter)(req, res, step);
        } catch (thrown) {
          finish(req, res, thrown, counter.calls);
        }
      };
      step();
    };
  } else {
    const app = (framework === 'connect'
      ? connect()
      : framework === 'express4'
        ? express4()
        : express5()) as unknown as { use: (...args: unknown[]) => unknown };
    const counter = new WeakMap<http.IncomingMessage, { calls: number }>();
    const counterOf = (req: http.IncomingMessage) => {
      const existing = counter.get(req);
      if (existing) return existing;
      const created = { calls: 0 };
      counter.set(req, created);
      return created;
    };
    for (const mw of middleware) {
      app.use(
        (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => {
          const c = counterOf(req);
          c.calls = 0;
          counted(mw, c)(req, res, next);
        },
      );
    }
    app.use((req: http.IncomingMessage, res: http.ServerResponse) => {
      finish(req, res, undefined, counterOf(req).calls);
    });
    app.use(
      (
        err: unknown,
        req: http.IncomingMessage,
        res: http.ServerResponse,
        next: (err?: unknown) => void,
      ) => {
        if (errorMode === 'framework') {
          outcomes.push({
            error: err,
            body: (req as { body?: unknown }).body,
            nextCalls: counterOf(req).calls,
          });
          next(err);
          return;
        }
        finish(req, res, err, counterOf(req).calls);
      },
    );
    listener = app as unknown as http.RequestListener;
  }

  const transport = options.transport ?? (options.https ? 'https' : 'http');
  return serve(listener, transport, (timeoutMs = OUTCOME_TIMEOUT_MS) => outcomes.next(timeoutMs));
}

/** Makes the server of a transport around a request listener. */
function createAnyServer(listener: http.RequestListener, transport: Transport): AnyServer {
  switch (transport) {
    case 'http':
      return http.createServer(listener);
    case 'https':
      return https.createServer(tlsCredentials(), listener);
    case 'h2c':
      return http2.createServer(
        listener as unknown as (
          req: http2.Http2ServerRequest,
          res: http2.Http2ServerResponse,
        ) => void,
      );
    default:
      // The compatibility API hands the listener Http2ServerRequest/Response, which stand in
      // for IncomingMessage/ServerResponse: that is what it is for.
      return http2.createSecureServer(
        { ...tlsCredentials(), allowHTTP1: transport === 'h2-http1' },
        listener as unknown as (
          req: http2.Http2ServerRequest,
          res: http2.Http2ServerResponse,
        ) => void,
      );
  }
}

/**
 * Serves `listener` over `transport` on 127.0.0.1:0. `close` ends every connection and
 * session at once (HTTP/1.1 sockets and HTTP/2 sessions alike), so a test never waits for a
 * client's keep-alive.
 */
export async function serve(
  listener: http.RequestListener,
  transport: Transport = 'http',
  nextOutcome: TestServer['nextOutcome'] = () =>
    Promise.reject(new Error('this server records no outcomes')),
): Promise<TestServer> {
  const server = createAnyServer(listener, transport);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `${transport === 'http' || transport === 'h2c' ? 'http' : 'https'}://127.0.0.1:${port}`,
    transport,
    nextOutcome,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
