// Per-request state, kept off `req` and `res`: when the request reached the logger and from
// which address, and when and with what the response wrote its head. It lives in one small
// object per request (an `Exchange`, exchange.ts), held only by that request's closures: the 'close'
// listener that writes the line and, for formats that read the head, the `writeHead` wrapper.
// Nothing is attached to `req` or `res` to find it again (no field, symbol, private name or
// WeakMap entry: each of those cost more than the rest of a line, or changed the hidden class
// of Node's own objects for every later access inside node:http).
//
// Tokens read the exchange through the line being made (line.ts).
//
// Node has no event for "headers written", so, as morgan does through on-headers, `writeHead`
// is wrapped: every way a response sends its head (`writeHead`, the implicit head of the first
// `write`/`end`, `flushHeaders`) goes through `this.writeHead`. The wrapper also keeps the
// headers given to `writeHead` itself: node:http does not store those when no header was set
// before (`getHeader` cannot see them), while morgan, whose on-headers copies them in with
// `setHeader`, logs them. We read them from the exchange instead of changing `res`.
//
// The wrapper is the one thing the logger puts on `res`, and only where it is needed:
// - it is installed only for formats that may read the head (`:response-time`, `:res[...]`,
//   a format function, or a token the application defined or redefined), and never with
//   `immediate`: `:total-time` only needs to know that the head went out after the request
//   reached the logger, which `res.headersSent` read on arrival and at the end tells;
// - it is a plain own property, assigned as morgan's on-headers and compression assign theirs,
//   so another middleware that wraps `writeHead` in turn works as before. It is enumerable: a
//   non-enumerable one (`defineProperty`) cost about 3,300 instructions more per request
//   (callgrind, `combined`, 20,000 requests, when the logger's whole overhead was 12,300);
// - it records, then calls the `writeHead` it replaced with the same `this` and arguments, and
//   returns its result;
// - on a response that cannot take it (made non-extensible or frozen, or with a read-only
//   `writeHead`), nothing is installed: the head's time and headers are then unknown, written
//   "-", and the request is still logged.

import type { OutgoingHttpHeader, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LogRequest, LogResponse } from '../types.js';
import { captureContext, type SpanContext, spanContextIn } from './active-span.js';
import type { Exchange } from './exchange.js';
import { toFixed } from './fixed.js';
import { arrivalOf, currentLine, type Line, lineExchange } from './line.js';

/** A monotonic clock in milliseconds. Tests may replace it with `setClock`. */
let now: () => number = () => performance.now();

/** Replaces the clock (tests only; not part of the public API). Returns the previous one. */
export function setClock(clock: () => number): () => number {
  const previous = now;
  now = clock;
  return previous;
}

/** The clock's reading now: the fetch door times its exchanges itself (it shares no arrivals). */
export function clock(): number {
  return now();
}

/**
 * Writes the line of a response whose connection closed before the application answered, once
 * the application has had the rest of this turn of the event loop to answer. Every runtime
 * emits the response's 'close' before the application can: Node and Bun, over HTTP/1.1 and
 * HTTP/2, close the response with the connection (or stream), then fail the request's body
 * (over HTTP/1.1 its 'error' on the next tick, over HTTP/2 an end short of its length), and
 * only then does a body reader hand that on and the application answer it (a 400 to nobody).
 * Waiting one turn lets the line name that answer: a status code other than the one the
 * request arrived with, or an ended response (`statusCodeOf`). Over HTTP/2 a reset stream's
 * request fails first ('aborted' before the response's 'close'), so the application may have
 * answered before the 'close' already.
 */
export function lineAfterAbandon(exchange: Exchange, line: (exchange: Exchange) => void): void {
  exchange.abandoned = true;
  setImmediate(line, exchange);
}

/**
 * The status code a line names: the one sent with the head or, for a response whose client
 * went away first, the one the application answered with since (it ended the response or set
 * another status); undefined when there is none (no head, or `immediate`).
 */
export function statusCodeOf(res: LogResponse): number | undefined {
  if (res.headersSent) return res.statusCode;
  // Ended without a head: over HTTP/2, answered after the stream was reset (the request's
  // 'aborted' comes before the response's 'close' there), so the head could not go out.
  if (res.writableEnded) return res.statusCode;
  const exchange = lineExchange();
  if (exchange === undefined || exchange.res !== res) return undefined;
  return exchange.abandoned && res.statusCode !== exchange.statusOnArrival
    ? res.statusCode
    : undefined;
}

/**
 * The ids of the OpenTelemetry span the request was handled in, if one was active: read once
 * per line from the context captured on arrival (the active one for a token called by the
 * application itself).
 */
export function spanOf(req: LogRequest): SpanContext | undefined {
  const exchange = arrivalOf(req);
  if (exchange === undefined) return spanContextIn(captureContext());
  if (exchange.span === undefined) exchange.span = spanContextIn(exchange.context) ?? null;
  return exchange.span ?? undefined;
}

/** The exchange of the line being made, if it is about this response and its head is out. */
function headOf(res: LogResponse): Exchange | undefined {
  const exchange = lineExchange();
  return exchange !== undefined && exchange.res === res && exchange.headWritten
    ? exchange
    : undefined;
}

/**
 * The exchange of the line being made, if it is about this request and response and the
 * response's head went out after the request reached the logger: what the time to the end
 * needs, known without watching the head.
 */
function sentOf(req: LogRequest, res: LogResponse): Exchange | undefined {
  const exchange = lineExchange();
  return exchange !== undefined &&
    exchange.req === req &&
    exchange.res === res &&
    res.headersSent &&
    !exchange.sentBefore
    ? exchange
    : undefined;
}

// Several loggers on one request agree on its start, as morgan's do: each morgan overwrites the
// request's start time, so the logger reached last sets it for all of them and their lines give
// the same :response-time. That needs a record shared between loggers and found from `req`, a
// WeakMap, which is kept off the path of a process with a single logger (the common case, where
// a WeakMap entry per request would cost more than the rest of the line): there, the exchange's
// own arrival is the start.
let loggersMade = 0;
const sharedArrivals = new WeakMap<LogRequest, number>();

/** Counts a new logger: from the second one on, arrivals are shared. */
export function countLogger(): void {
  loggersMade += 1;
}

/**
 * The clock on the arrival of `req` at a logger (NaN when that logger's format needs no time
 * and no other logger could share it), recorded as the request's latest start when several
 * loggers exist.
 */
export function arrive(req: LogRequest, needed: boolean): number {
  if (loggersMade < 2) return needed ? now() : Number.NaN;
  const at = now();
  sharedArrivals.set(req, at);
  return at;
}

// Several loggers on one response share one 'close' listener, as morgan's share the one
// on-finished adds: a listener each would pass Node's default limit of ten listeners (with the
// application's own) and print a MaxListenersExceededWarning for every request. The queue is
// found from `res` through a WeakMap, kept off the path of a single logger as above.
const closeQueues = new WeakMap<ServerResponse, Array<() => void>>();

/** Calls `done` on the response's 'close'. */
export function onClose(res: ServerResponse, done: () => void): void {
  if (loggersMade < 2) {
    res.on('close', done);
    return;
  }
  const queue = closeQueues.get(res);
  if (queue !== undefined) {
    queue.push(done);
    return;
  }
  const first = [done];
  closeQueues.set(res, first);
  // Left in place, as a single logger's is; each `done` runs once (see whenDone in ../node-exchange.ts).
  const all = () => {
    closeQueues.delete(res);
    for (const each of first) each();
  };
  res.on('close', all);
}

/** The request's start: the latest arrival at any logger, or this exchange's own. */
function startOf(exchange: Exchange): number {
  if (loggersMade < 2) return exchange.startedAt;
  return sharedArrivals.get(exchange.req) ?? exchange.startedAt;
}

/** `req.ip`, which Express sets (honouring its "trust proxy" setting), if truthy. */
export function frameworkIp(req: LogRequest): string | undefined {
  return (req as { ip?: string }).ip || undefined;
}

/** The address of the request's socket, while the socket is there. */
export function socketAddress(req: LogRequest): string | undefined {
  // `req.connection` is what morgan reads; in node:http it is the same object as `req.socket`.
  const socket = req.socket ?? (req as { connection?: LogRequest['socket'] }).connection;
  return socket?.remoteAddress || undefined;
}

export function arrivalAddress(req: LogRequest): string | undefined {
  return arrivalOf(req)?.remoteAddress;
}

/**
 * Starts watching for the moment the exchange's response writes its head, and what with;
 * `timed` when the clock is read then (a format that logs only headers needs no time).
 */
export function watchHead(exchange: Exchange, timed: boolean): void {
  // Node's door: the fetch door knows when its head is out (the handler's Response).
  const res = exchange.res as ServerResponse;
  const replaced = res.writeHead as WriteHead;
  // Named parameters and `arguments` rather than rest parameters: no array is built per call,
  // and the replaced function still receives exactly the arguments given.
  const wrapper = function writeHead(
    this: LogResponse,
    _statusCode: unknown,
    reason?: unknown,
    obj?: unknown,
  ): unknown {
    if (!exchange.headWritten) {
      exchange.headWritten = true;
      if (timed) exchange.headAt = now();
      // writeHead(statusCode[, statusMessage][, headers]), as on-headers reads it.
      exchange.headers = typeof reason === 'string' ? obj : reason;
    }
    // `apply` with `arguments` is the form V8 forwards without building an arguments object.
    // biome-ignore lint/complexity/noArguments: pass the caller's arguments through unchanged
    return replaced.apply(this, arguments as unknown as unknown[]);
  };
  try {
    (res as { writeHead: unknown }).writeHead = wrapper;
  } catch {
    // A frozen or non-extensible response, or a read-only writeHead: left as it is.
  }
}

type WriteHead = (...args: unknown[]) => unknown;

/**
 * The value `res.getHeader(field)` would have if, as on-headers does for morgan, the headers
 * given to `writeHead` had been copied in with `setHeader` (object or [name, value] pairs:
 * the last one wins) or `appendHeader` (a flat [name, value, ...] list: values add up).
 */
export function headerGivenToWriteHead(
  res: LogResponse,
  field: string,
): OutgoingHttpHeader | undefined {
  const headers = headOf(res)?.headers;
  if (headers === null || typeof headers !== 'object') return undefined;
  const name = field.toLowerCase();
  let found: OutgoingHttpHeader | undefined;
  if (!Array.isArray(headers)) {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === name) found = (headers as Record<string, OutgoingHttpHeader>)[key];
    }
  } else if (headers.length > 0 && Array.isArray(headers[0])) {
    for (const pair of headers as Array<[string, OutgoingHttpHeader]>) {
      if (String(pair[0]).toLowerCase() === name) found = pair[1];
    }
  } else {
    const values: string[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === name) values.push(...[headers[i + 1]].flat());
    }
    if (values.length > 0) found = values.length === 1 ? values[0] : values;
  }
  return found;
}

function toFixedDigits(ms: number, digits: string | undefined): string | undefined {
  // A time whose ends were not both read (a token the application defined after the request
  // arrived) is unknown, never a number made up from NaN.
  if (Number.isNaN(ms)) return undefined;
  // The argument is converted as morgan's `toFixed(digits)` converts it ("5" -> 5, "x" -> 0);
  // where `toFixed` would throw (outside 0..100) there is no value, written as "-".
  const count = digits === undefined ? 3 : Math.trunc(Number(digits)) || 0;
  if (count < 0 || count > 100) return undefined;
  return toFixed(ms, count);
}

/** Milliseconds from arrival until the head was written, or undefined. */
export function responseTime(
  req: LogRequest,
  res: LogResponse,
  digits: string | undefined,
): string | undefined {
  const head = headOf(res);
  if (head === undefined || arrivalOf(req) !== head) return undefined;
  return toFixedDigits(head.headAt - startOf(head), digits);
}

/**
 * Milliseconds from arrival until now (the response is done when lines are written): the
 * line's duration, read once per line, so that `:total-time`, the JSON durations and the
 * `metrics` duration of one request are one measurement.
 */
export function totalTime(
  req: LogRequest,
  res: LogResponse,
  digits: string | undefined,
): string | undefined {
  const ms = lineMs(req, res);
  return ms === undefined ? undefined : toFixedDigits(ms, digits);
}

/** The clock reading the exchange ended at: now, unless it ended before its line. */
function endOf(exchange: Exchange): number {
  const ended = exchange.endedAt;
  return Number.isNaN(ended) ? now() : ended;
}

/**
 * Milliseconds from arrival until now, as a number (for JSON lines, which need no text and
 * pay nothing for `toFixed`), or undefined when the head was not written.
 */
export function totalMs(req: LogRequest, res: LogResponse): number | undefined {
  const sent = sentOf(req, res);
  return sent === undefined ? undefined : elapsedMs(sent);
}

/**
 * `totalMs` read once per line (kept on the line being made): every reader of the line's
 * duration (`:total-time`, `msg`, `duration_ms`, `event.duration`, `slow`, `metrics`) agrees.
 */
export function lineMs(req: LogRequest, res: LogResponse): number | undefined {
  const line = currentLine();
  // Only the line's own request is kept: a token asked about another reads it afresh.
  const exchange = line?.exchange;
  if (exchange === undefined || exchange.req !== req || exchange.res !== res) {
    return totalMs(req, res);
  }
  const read = line as Line;
  if (!read.durationRead) {
    read.durationRead = true;
    read.duration = totalMs(req, res);
  }
  return read.duration;
}

/**
 * Milliseconds from the exchange's arrival to its end, whether or not a head was written (the
 * `metrics` duration of a request the client left before any answer); undefined untimed.
 */
export function elapsedMs(exchange: Exchange): number | undefined {
  const ms = endOf(exchange) - startOf(exchange);
  return Number.isNaN(ms) ? undefined : ms;
}
