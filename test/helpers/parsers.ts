// Helpers for the parser tests: a server per test, one-line requests, and checks of what the
// server saw. Built on the shared helpers (real servers on 127.0.0.1:0, a real client).

import assert from 'node:assert/strict';
import type { ParserMiddleware, ParserOptions } from '../../src/index.js';
import {
  type Framework,
  type Middleware,
  type Outcome,
  type Reply,
  type SendOptions,
  type ServerOptions,
  send,
  startServer,
  type TestServer,
} from './index.js';

/**
 * Any of the four parsers, called with the options they all take. `parsers[name]`, a union of
 * the four, cannot be called as it is: each has its own overload for a `schema`.
 */
export type AnyParser = (options?: ParserOptions) => ParserMiddleware;

/** Runs `fn` with a fresh server running `middleware`, and closes it afterwards. */
export async function withServer<T>(
  middleware: Middleware | readonly Middleware[],
  fn: (server: TestServer) => Promise<T>,
  options: Omit<ServerOptions, 'middleware'> = {},
): Promise<T> {
  const server = await startServer({
    ...options,
    middleware: Array.isArray(middleware) ? middleware : [middleware as Middleware],
  });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

export interface Exchange {
  readonly reply: Reply;
  readonly outcome: Outcome;
}

/** POSTs `body` with the given Content-Type (and headers) and returns reply and outcome. */
export async function post(
  server: TestServer,
  contentType: string | undefined,
  body: SendOptions['body'],
  headers: Record<string, string | number> = {},
): Promise<Exchange> {
  const all: Record<string, string | number> = { ...headers };
  if (contentType !== undefined) all['content-type'] = contentType;
  const reply = await send(server, {
    method: 'POST',
    headers: all,
    ...(body === undefined ? {} : { body }),
  });
  const outcome = await server.nextOutcome();
  return { reply, outcome };
}

/** One request through a fresh server: the common shape of a behaviour test. */
export async function exchange(
  middleware: Middleware | readonly Middleware[],
  contentType: string | undefined,
  body: SendOptions['body'],
  headers: Record<string, string | number> = {},
  framework: Framework = 'http',
): Promise<Exchange> {
  return withServer(middleware, (server) => post(server, contentType, body, headers), {
    framework,
  });
}

/** Asserts the request was parsed and `req.body` deep-equals `expected`. */
export function assertBody(result: Exchange, expected: unknown): void {
  assert.equal(result.outcome.error, undefined, `unexpected error: ${result.reply.text}`);
  assert.deepEqual(result.outcome.body, expected);
  assert.equal(result.reply.status, 200);
}

/** Asserts the error given to `next`: status, type, message, and any extra properties. */
export function assertError(
  result: Exchange,
  status: number,
  type: string | undefined,
  message: string | RegExp,
  props: Record<string, unknown> = {},
): Record<string, unknown> {
  const err = result.outcome.error as Record<string, unknown> | undefined;
  assert.ok(err instanceof Error, `expected an error, got body ${result.reply.text}`);
  assert.equal(err.status, status);
  assert.equal(err.statusCode, status);
  assert.equal(err.type, type);
  assert.equal(err.expose, status < 500);
  if (typeof message === 'string') assert.equal(err.message, message);
  else assert.match(err.message as string, message);
  for (const [key, value] of Object.entries(props)) assert.deepEqual(err[key], value, key);
  assert.equal(result.reply.status, status);
  assert.equal(result.outcome.nextCalls, 1);
  return err;
}
