// Helpers for the logger's tests: a server with one or more loggers in front of a handler,
// lines captured per logger, a fixed clock, and child processes for what must run outside
// the test process (crashes, runtime flags, environment read at startup).
import { execFile } from 'node:child_process';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { afterEach, beforeEach, mock } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setClock } from '../../src/logger/core/timing.js';
import { logger } from '../../src/logger/index.js';
import { type SendOptions, send, type Target } from './client.js';
import { captureLines, type LineCapture } from './lines.js';
import {
  type Framework,
  type Handler,
  type Middleware,
  serve,
  startServer,
  type TestServer,
  type Transport,
} from './server.js';
import { quietly } from './warnings.js';

export interface LoggedServer extends TestServer {
  /** Lines written by the (first) logger. */
  readonly capture: LineCapture;
}

/** A handler that answers 200 with a fixed 2-byte body and its Content-Length. */
export const okHandler: Handler = (_req, res) => {
  res.setHeader('content-length', '2');
  res.end('ok');
};

/**
 * Starts a server (port 0) whose only middleware is `makeLogger(stream)`; lines go to a fresh
 * capture. `before` middleware run ahead of the logger (to set `req.ip`, an id, ...).
 */
export async function loggedServer(
  makeLogger: (stream: LineCapture['stream']) => Middleware,
  options: {
    framework?: Framework;
    handler?: Handler;
    before?: readonly Middleware[];
    after?: readonly Middleware[];
    https?: boolean;
    transport?: Transport;
  } = {},
): Promise<LoggedServer> {
  const capture = captureLines();
  const server = await startServer({
    framework: options.framework ?? 'http',
    middleware: [...(options.before ?? []), makeLogger(capture.stream), ...(options.after ?? [])],
    handler: options.handler ?? okHandler,
    ...(options.https ? { https: true } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  return Object.assign(server, { capture });
}

/** The line one request (`send(server, request)`) gives through a `loggedServer`. */
export async function firstLine(
  makeLogger: (stream: LineCapture['stream']) => Middleware,
  request: SendOptions = {},
  options: Parameters<typeof loggedServer>[1] = {},
): Promise<string> {
  const server = await loggedServer(makeLogger, options);
  try {
    await send(server, request);
    const [line] = await server.capture.waitFor(1);
    return line as string;
  } finally {
    await server.close();
  }
}

/** 10 Oct 2000 13:55:36.789 UTC: the Common Log Format's own example date. */
export const FIXED_NOW = Date.UTC(2000, 9, 10, 13, 55, 36, 789);

/**
 * Freezes `Date` at FIXED_NOW (timers keep running) and makes the logger's monotonic clock
 * advance by exactly `stepMs` on every reading: at the arrival, at the head (only for a format
 * that times it: `:response-time`, a format function, a token of the application's) and when
 * the line is made. So `:response-time` is `stepMs`, and `:total-time` is `stepMs`, or
 * `2 * stepMs` when the head was timed too.
 * Returns the undo.
 */
export function fixTime(stepMs = 1.5): () => void {
  quietly(() => mock.timers.enable({ apis: ['Date'], now: FIXED_NOW }));
  let reading = 0;
  const previous = setClock(() => {
    reading += stepMs;
    return reading;
  });
  return () => {
    setClock(previous);
    mock.timers.reset();
  };
}

/**
 * For a file of exact lines: around each of its tests, a frozen clock (`fixTime(stepMs)`) and
 * NO_COLOR unset, so `dev` colours whatever the environment says; both restored after. Call it
 * once, at the top of the file.
 */
export function exactLinesEachTest(stepMs = 1.5): void {
  let undo: () => void = () => {};
  let savedNoColor: string | undefined;
  beforeEach(() => {
    undo = fixTime(stepMs);
    savedNoColor = process.env.NO_COLOR;
    delete process.env.NO_COLOR;
  });
  afterEach(() => {
    undo();
    if (savedNoColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = savedNoColor;
  });
}

/**
 * A request that gives every predefined format something to write: a query, Basic
 * credentials (`:remote-user`), a referrer and a user agent.
 */
export const fullRequest: SendOptions = {
  path: '/path?q=1',
  auth: 'tobi:ferret',
  headers: { referer: 'http://example.com/', 'user-agent': 'test-agent/1.0' },
};

/** What Koa and Fastify send for a body of `'ok'`, sent by hand on node:http. */
const okTextHandler: Handler = (_req, res) => {
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('content-length', '2');
  res.end('ok');
};

/**
 * The line the Node logger writes with `format` for `fullRequest` answered as Koa and Fastify
 * answer `'ok'`: what their integrations, the Node logger run over their requests, must write.
 */
export function nodeLineForOk(format: string): Promise<string> {
  return firstLine((stream) => logger(format, { stream }), fullRequest, {
    handler: okTextHandler,
  });
}

/**
 * A line with the ports of the json and ecs fields set to 0: two servers compared line for
 * line listen on different ports, and their clients come from different ones.
 */
export function withoutPorts(line: string): string {
  return line.replace(/("(?:client|server|source|destination)\.port":)\d+/g, '$1 0');
}

/** The JSON body `postThenGet` sends, and what a server echoing it parsed answers. */
export const ITEM = { sku: 'a-1', quantity: 2 } as const;

/**
 * POSTs ITEM as JSON to /items, then GETs /after: a logger that wrote the first request's line
 * once has the second's next. Gives the answer to the POST, parsed.
 */
export async function postThenGet(server: Target): Promise<unknown> {
  const reply = await send(server, {
    method: 'POST',
    path: '/items',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ITEM),
  });
  await send(server, { path: '/after' });
  return JSON.parse(reply.text);
}

/** Replaces every timing number before " ms" (response-time) with "<t>". */
export function maskTimes(line: string): string {
  return line.replace(/\d+(?:\.\d+)? ms/g, '<t> ms');
}

export interface ChildResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a fixture from test/logger/fixtures with tsx, resolving with its exit and output. */
export function runFixture(
  name: string,
  options: {
    nodeFlags?: readonly string[];
    args?: readonly string[];
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<ChildResult> {
  const file = fileURLToPath(new URL(`../logger/fixtures/${name}`, import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.nodeFlags ?? []), '--import', 'tsx', file, ...(options.args ?? [])],
      { env: { ...process.env, ...options.env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** An own-property snapshot of a request/response, to show the logger adds nothing. */
export function ownKeys(value: IncomingMessage | ServerResponse): string[] {
  return Reflect.ownKeys(value)
    .map((key) => String(key))
    .sort();
}

/** Serves any request listener (an Express or Connect app built by the test) on port 0. */
export function listen(listener: RequestListener, transport?: Transport): Promise<TestServer> {
  return serve(listener, transport);
}
