import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
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
  https?: boolean;
}

export interface TestServer {
  readonly server: http.Server;
  readonly port: number;
  /** `http://127.0.0.1:port` (or https). */
  readonly origin: string;
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

  const server = options.https
    ? https.createServer(tlsCredentials(), listener)
    : http.createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`,
    nextOutcome: (timeoutMs = OUTCOME_TIMEOUT_MS) => outcomes.next(timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
