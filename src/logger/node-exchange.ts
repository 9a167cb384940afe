// The node:http exchange: what every door on node:http (the Node middleware of
// httpware/logger, httpware/koa over `ctx.req`/`ctx.res`, httpware/fastify over `request.raw`/
// `reply.raw`) hands to the writer. The request and response are filled into an `Exchange` on
// arrival, and the line is written when the response closes.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { captureContext } from './core/active-span.js';
import { meterBody } from './core/body-bytes.js';
import { Exchange } from './core/exchange.js';
import { lineScope, writeInScope } from './core/line-scope.js';
import type { ProxyResolver } from './core/proxy.js';
import {
  arrive,
  countLogger,
  frameworkIp,
  lineAfterAbandon,
  onClose,
  socketAddress,
  watchHead,
} from './core/timing.js';
import { fullUrl } from './core/url-parts.js';
import type { DoorDefaults } from './options.js';
import type { LoggerMiddleware, LogStream } from './types.js';
import { lineWriter } from './writer.js';

/** Lines go to the process's standard output unless a stream is given. */
const stdout = (): LogStream => process.stdout;

/**
 * Whether the response is already done (on-finished's test): ended, or its connection can no
 * longer be written (a response queued behind another has no socket yet: its request's is
 * read). Then no 'close' may come, and the line is written at once.
 */
function alreadyDone(res: ServerResponse, req: IncomingMessage): boolean {
  if (res.writableEnded) return true;
  const socket = res.socket ?? req.socket;
  return socket != null && !socket.writable;
}

// A pipelined request's response is queued behind the responses before it on the connection:
// node:http gives it the socket only once they are done (`res.socket` is null until then). On
// Node 20 and 22 such a response never emits 'close' when the connection closes first (its
// request emits 'aborted' and 'close', the response nothing: nodejs/node PR #62534), so its
// line and metrics would never come, and a client could keep `http.server.active_requests` up
// with one packet per connection. Those responses alone also wait for their connection's
// 'close': one listener per connection, whatever its number of queued responses (a listener
// each would pass Node's limit of ten), and nothing on the path of a response that has its
// socket on arrival (the usual case: a request not pipelined, or first in line).
const queuedOn = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `done` when `socket` closes, unless the returned function was called first (the
 * response closed by itself): a connection that serves many pipelined requests keeps none.
 */
function onConnectionClose(socket: Socket, done: () => void): () => void {
  let queued = queuedOn.get(socket);
  if (queued === undefined) {
    const waiting = new Set<() => void>();
    queuedOn.set(socket, waiting);
    socket.once('close', () => {
      queuedOn.delete(socket);
      for (const each of waiting) each();
    });
    queued = waiting;
  }
  queued.add(done);
  const set = queued;
  return () => set.delete(done);
}

/**
 * Calls `log(exchange)` once when the response is done. One 'close' listener is enough: a
 * response emits 'close' after 'finish' when it was sent, and on its own when the connection
 * closed first (an aborted request), on every Node this package supports (>= 20). Several
 * loggers on one response share that listener (`onClose`). A response closed before the
 * application answered is logged a turn later (`lineAfterAbandon`), so that the line can name an answer
 * given to the failed request; that costs nothing to a response that was answered.
 *
 * When the line may run the application's code (`withContext`), it is made in the async
 * context of this call (core/line-scope.ts).
 */
function whenDone(exchange: Exchange, log: (exchange: Exchange) => void, withContext: boolean) {
  const res = exchange.res as ServerResponse;
  const req = exchange.req as IncomingMessage;
  if (alreadyDone(res, req)) {
    // setImmediate carries the current async context by itself.
    setImmediate(log, exchange);
    return;
  }
  let line = log;
  const scope = lineScope(withContext);
  if (scope !== undefined) line = () => writeInScope(scope, log, exchange);
  // The listener is left on the response, which is done with: removing it cost about 1,000
  // instructions per request (callgrind, `combined`, of an overhead of 8,300 then), as
  // node:events deletes the event from the emitter's table. Node emits 'close' once (a runtime
  // that emitted it again would still get one line).
  let closed = false;
  const done = () => {
    if (closed) return;
    closed = true;
    // Ended, or its head is out: the usual close, after 'finish' or mid-response.
    if (res.writableEnded || res.headersSent) line(exchange);
    else lineAfterAbandon(exchange, line);
  };
  if (res.socket !== null || req.socket == null) onClose(res, done);
  else onQueuedClose(res, req.socket, done);
}

/**
 * Calls `done` on the 'close' of a response queued behind an earlier one, or on its
 * connection's, whichever comes first (see queuedOn); kept apart from `whenDone`, which every
 * request runs.
 */
function onQueuedClose(res: ServerResponse, socket: Socket, done: () => void): void {
  const forget = onConnectionClose(socket, done);
  onClose(res, () => {
    forget();
    done();
  });
}

/** The client's address behind the proxies `trustProxy` trusts (Express's `req.ip` aside). */
function proxiedAddress(req: IncomingMessage, proxy: ProxyResolver): string | undefined {
  const value = req.headers[proxy.header];
  // node:http joins repeated X-Forwarded-For and Forwarded lines with ", " already.
  return proxy.resolve(socketAddress(req), typeof value === 'string' ? value : undefined);
}

/** Where the Node door's lines go by default: the process's standard output. */
const NODE: DoorDefaults = { defaultStream: stdout, web: false };

/**
 * How a door on node:http learns the route its framework matched, from the framework's own
 * object for the request (`source`: Koa's `ctx`, Fastify's `request`). Asked when the line is
 * made, and only when the line reads the route: by then the router has run, whether the
 * application answered, threw, or its client went away while it worked.
 */
export type RouteReader<Source> = (source: Source) => string | undefined;

/** The Node door's middleware with the framework's object for the request as a fourth argument. */
export type SourcedMiddleware<Source> = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  source: Source,
) => void;

/** The middleware writing one line per request of a node:http server. */
export function nodeLogger(format: unknown, options?: unknown): LoggerMiddleware {
  return nodeDoorLogger<undefined>(format, options, undefined) as LoggerMiddleware;
}

/**
 * A door's Node middleware: `routeOf` reads the route from the `source` each call is given
 * (undefined: the request's own record is read, Express's `req.route`, url-parts.ts).
 */
export function nodeDoorLogger<Source>(
  format: unknown,
  options: unknown,
  routeOf: RouteReader<Source> | undefined,
): SourcedMiddleware<Source> {
  const writer = lineWriter(format, options, NODE);
  const { log, arrived, needs, callsApplication, callbacks } = writer;
  const { proxy } = writer.options;
  countLogger();
  // `source` has a default value so that the function's `length` stays 3: Express and Connect
  // take a function of four parameters for an error handler `(err, req, res, next)`.
  const middleware = function logger(
    req: IncomingMessage,
    res: ServerResponse,
    next: (err?: unknown) => void,
    source: Source = undefined as Source,
  ): void {
    // The application's format function or tokens may call any token: everything is recorded.
    // A skip function is not handed the tokens, but may read the async context too.
    const any = callsApplication();
    const timed = needs.arrival || any;
    const exchange = new Exchange(
      req,
      res,
      arrive(req, timed),
      needs.address || any
        ? frameworkIp(req) ||
            (proxy === undefined ? socketAddress(req) : proxiedAddress(req, proxy))
        : undefined,
      timed && res.headersSent,
    );
    if (needs.span || any) exchange.context = captureContext();
    // A closure per request only where the framework is asked and the line reads the route.
    const line =
      routeOf !== undefined && (needs.route || any) ? routedLine(log, routeOf, source) : log;
    // With `immediate` the line is written now: no head has been written, nothing to watch.
    if (!arrived(exchange, exchange, line)) {
      if (needs.head || any) watchHead(exchange, needs.headTime || any);
      if (needs.bytes) exchange.meter = meterBody(req, res);
      whenDone(exchange, line, any || callbacks);
    }
    next();
  };
  if (!writer.excludes) return middleware;
  // `exclude`'s paths and methods: such a request is passed on before anything is recorded.
  const excluded = writer.excluded;
  return function logger(
    req: IncomingMessage,
    res: ServerResponse,
    next: (err?: unknown) => void,
    source: Source = undefined as Source,
  ): void {
    if (excluded(req.method, fullUrl(req))) next();
    else middleware(req, res, next, source);
  };
}

/** `log`, with the exchange's route read from the framework's object first. */
function routedLine<Source>(
  log: (exchange: Exchange) => void,
  routeOf: RouteReader<Source>,
  source: Source,
): (exchange: Exchange) => void {
  return (exchange) => {
    exchange.route = routeOf(source);
    log(exchange);
  };
}
