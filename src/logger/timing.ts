// Per-request state, kept off `req` and `res` (in hidden slots, see hidden-slot.ts): when the
// request reached the logger and from which address, and when and with what the response
// wrote its head.
//
// Node has no event for "headers written", so, as morgan does through on-headers, `writeHead`
// is wrapped: every way a response sends its head (`writeHead`, the implicit head of the first
// `write`/`end`, `flushHeaders`) goes through `this.writeHead`. The wrapper also keeps the
// headers given to `writeHead` itself: node:http does not store those when no header was set
// before (`getHeader` cannot see them), while morgan, whose on-headers copies them in with
// `setHeader`, logs them. We read them from our own record instead of changing `res`.
//
// The wrapper is chosen to be as invisible as the need allows:
// - it is installed only for formats that may read the head (`:response-time`, `:total-time`,
//   `:res[...]`, or a format function), and never with `immediate`;
// - it is an own property that is not enumerable (so `Object.keys(res)`, spreads and
//   serialisers see nothing new) but stays writable, so another middleware that wraps
//   `writeHead` in turn (compression, on-headers) works as before; if such a middleware came
//   first, its own property is replaced by plain assignment, keeping its attributes;
// - it is one shared function (no closure per request) that records, then calls the
//   `writeHead` it replaced with the same `this` and arguments, and returns its result;
// - it is installed at most once per response, however many loggers are installed.

import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { hiddenSlot } from './hidden-slot.js';

/** A monotonic clock in milliseconds. Tests may replace it with `setClock`. */
let now: () => number = () => performance.now();

/** Replaces the clock (tests only; not part of the public API). Returns the previous one. */
export function setClock(clock: () => number): () => number {
  const previous = now;
  now = clock;
  return previous;
}

/** One record per request, updated by every logger that sees the request. */
interface Arrival {
  /** Clock reading when the request reached the logger. */
  startedAt: number;
  /** `req.ip` or the socket's address when the request arrived (the socket may go away). */
  remoteAddress: string | undefined;
}

/**
 * One record per watched response, made when the wrapper is installed: the `writeHead` it
 * replaced, then when and with what the head was written.
 */
interface HeadWatch {
  /** The `writeHead` the wrapper replaced, called with the same `this` and arguments. */
  readonly replaced: WriteHead;
  /** Whether the head was written (only the first call is recorded). */
  written: boolean;
  /** Clock reading when the head was about to be written. */
  writtenAt: number;
  /** The headers argument given to `writeHead`, if any (object, pairs or flat list). */
  headers: unknown;
}

type WriteHead = (...args: unknown[]) => unknown;

const arrivals = hiddenSlot<Arrival>();
const watches = hiddenSlot<HeadWatch>();

/** `req.ip`, which Express sets (honouring its "trust proxy" setting), if truthy. */
export function frameworkIp(req: IncomingMessage): string | undefined {
  return (req as { ip?: string }).ip || undefined;
}

/** The address of the request's socket, while the socket is there. */
export function socketAddress(req: IncomingMessage): string | undefined {
  // `req.connection` is what morgan reads; in node:http it is the same object as `req.socket`.
  const socket = req.socket ?? (req as { connection?: IncomingMessage['socket'] }).connection;
  return socket?.remoteAddress || undefined;
}

/**
 * Records the request's arrival. The last logger to see a request wins, as in morgan, so
 * several installations agree on one start time.
 */
export function recordArrival(req: IncomingMessage, withAddress: boolean): void {
  const startedAt = now();
  const remoteAddress = withAddress ? frameworkIp(req) || socketAddress(req) : undefined;
  const arrival = arrivals.get(req);
  if (arrival === undefined) {
    arrivals.attach(req, { startedAt, remoteAddress });
  } else {
    arrival.startedAt = startedAt;
    if (withAddress) arrival.remoteAddress = remoteAddress;
  }
}

export function arrivalAddress(req: IncomingMessage): string | undefined {
  return arrivals.get(req)?.remoteAddress;
}

// Named parameters and `arguments` rather than rest parameters: no array is built per call,
// and the replaced function still receives exactly the arguments given.
function writeHead(
  this: ServerResponse,
  _statusCode: unknown,
  reason?: unknown,
  obj?: unknown,
): unknown {
  const watch = watches.get(this);
  if (watch !== undefined && !watch.written) {
    watch.written = true;
    watch.writtenAt = now();
    // writeHead(statusCode[, statusMessage][, headers]), as on-headers reads it.
    watch.headers = typeof reason === 'string' ? obj : reason;
  }
  // Always found for a response this function was installed on; the fallback covers a caller
  // that borrowed the function onto another response.
  const replaced =
    watch?.replaced ?? (Object.getPrototypeOf(this) as { writeHead: WriteHead }).writeHead;
  // biome-ignore lint/complexity/noArguments: pass the caller's arguments through unchanged
  return Reflect.apply(replaced, this, arguments);
}

// One descriptor for every response: not enumerable, so `Object.keys(res)`, spreads and
// serialisers see nothing new, but writable and configurable, so a later wrapper can replace it.
const WRAPPER: PropertyDescriptor = {
  value: writeHead,
  writable: true,
  configurable: true,
  enumerable: false,
};

/** Starts watching for the moment `res` writes its head. */
export function watchHead(res: ServerResponse): void {
  if (watches.get(res) !== undefined) return;
  watches.attach(res, {
    replaced: res.writeHead as WriteHead,
    written: false,
    writtenAt: 0,
    headers: undefined,
  });
  if (Object.hasOwn(res, 'writeHead')) {
    (res as { writeHead: unknown }).writeHead = writeHead;
  } else {
    Object.defineProperty(res, 'writeHead', WRAPPER);
  }
}

/** What the wrapper recorded, once the head was written. */
function headOf(res: ServerResponse): HeadWatch | undefined {
  const watch = watches.get(res);
  return watch?.written ? watch : undefined;
}

/**
 * The value `res.getHeader(field)` would have if, as on-headers does for morgan, the headers
 * given to `writeHead` had been copied in with `setHeader` (object or [name, value] pairs:
 * the last one wins) or `appendHeader` (a flat [name, value, ...] list: values add up).
 */
export function headerGivenToWriteHead(
  res: ServerResponse,
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
  // The argument is converted as morgan's `toFixed(digits)` converts it ("5" -> 5, "x" -> 0);
  // where `toFixed` would throw (outside 0..100) there is no value, written as "-".
  const count = digits === undefined ? 3 : Math.trunc(Number(digits)) || 0;
  if (count < 0 || count > 100) return undefined;
  return ms.toFixed(count);
}

/** Milliseconds from arrival until the head was written, or undefined. */
export function responseTime(
  req: IncomingMessage,
  res: ServerResponse,
  digits: string | undefined,
): string | undefined {
  const arrival = arrivals.get(req);
  const head = headOf(res);
  if (arrival === undefined || head === undefined) return undefined;
  return toFixedDigits(head.writtenAt - arrival.startedAt, digits);
}

/** Milliseconds from arrival until now (the response is done when lines are written). */
export function totalTime(
  req: IncomingMessage,
  res: ServerResponse,
  digits: string | undefined,
): string | undefined {
  const arrival = arrivals.get(req);
  if (arrival === undefined || headOf(res) === undefined) return undefined;
  return toFixedDigits(now() - arrival.startedAt, digits);
}
