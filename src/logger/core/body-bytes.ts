// The size of a response's body: `:res-body-bytes`, `http.response.body.size` (json) and
// `http.response.body.bytes` (ecs). OpenTelemetry defines it as the bytes of the body
// transferred, without headers, "often, but not always, present as the Content-Length
// header". So it is the length the response announced when it announced one, and otherwise
// (chunked HTTP/1.1, HTTP/2 without Content-Length, an HTTP/2 `end(body)`) the bytes the
// application wrote, counted as they go. A response without a body (to HEAD, a 1xx, 204 or
// 304) transferred none: 0.
//
// Counting needs the body's writes, and Node has no event for them: the logger wraps
// `res.write` and `res.end`, only for formats that read the size. It cannot decide at
// `writeHead` whether to count: the head of a chunked response is written by its first
// `write` (node:http's implicit head, HTTP/2's likewise), which has already been looked up on
// `res` by then, so a wrapper installed from `writeHead` would miss that first chunk. The
// wrappers are installed on arrival and decide at their first call once the head is out: a
// response that announced a length is never counted, its later writes pass straight through.
// A response that did not finish (the client went away) has no size: what was handed to Node
// did not all reach the client, and how much did is not known.

import type { ServerResponse } from 'node:http';
import { hasNoBody } from '../../http-facts.js';
import type { LogRequest, LogResponse } from '../types.js';
import type { BodyMeter } from './exchange.js';
import { exchangeOfLine } from './line.js';

/** A `Content-Length` line of a head as node:http writes it (names keep the case given). */
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i;

/** The `Content-Length` of the head node:http wrote, if any. */
function writtenContentLength(res: LogResponse): string | undefined {
  // `_header` is the head as written (what `headersSent` tests); other implementations of a
  // response may have none.
  const head = (res as { _header?: unknown })._header;
  return typeof head === 'string' ? CONTENT_LENGTH.exec(head)?.[1] : undefined;
}

/**
 * The length the response announced: the `Content-Length` the application set (with
 * `setHeader` or `writeHead`) or, for a body given whole to `end`, its length, which node:http
 * announces in the head or, to an HTTP/1.0 client, sends unannounced before closing the
 * connection; undefined for a chunked response or when no head was sent. No wrapper of
 * `writeHead` is needed:
 * - `getHeader` sees what was set before the head;
 * - node:http keeps the rest as `_contentLength`, a number once it knows the length (from a
 *   header given only to `writeHead`, read as `+value`, so an invalid `''` or `0x5` gives 0
 *   or 5; or from a body given to `end`). Reading it spares the head's text, a string of ten
 *   pieces to join before it can be searched: 5.3k of the 17.3k instructions a json line cost;
 * - a chunked response whose `_contentLength` is no number was written without a
 *   `Content-Length` line (node:http sets `_contentLength` from every such line of the head it
 *   writes), so it announces none, known without searching the head: about 2,500 instructions
 *   less per chunked response (callgrind, `json`, three writes and `end()`, 10,000 requests);
 * - elsewhere (a chunked response whose `_contentLength` is a number, a head written by another
 *   implementation of a response) the head as written tells.
 */
export function announcedLength(res: LogResponse): unknown {
  if (!res.headersSent) return undefined;
  const set = res.getHeader('content-length');
  if (set !== undefined) return set;
  const known = res as { _contentLength?: unknown; chunkedEncoding?: unknown };
  const chunked = known.chunkedEncoding;
  if (typeof known._contentLength === 'number') {
    if (!chunked) return known._contentLength;
  } else if (chunked === true) {
    return undefined;
  }
  return writtenContentLength(res);
}

/**
 * Whether the response has no body (RFC 9110, section 6.4.1): to HEAD, or a 1xx, 204 or 304.
 * node:http marks it `_hasBody = false` and ignores writes; node:http2 sends none.
 */
function noBody(req: LogRequest, res: LogResponse): boolean {
  return (
    (res as { _hasBody?: unknown })._hasBody === false || hasNoBody(req.method, res.statusCode)
  );
}

/** The bytes of a chunk given to `write` or `end`, as Node sends it (0 for a callback). */
function sizeOf(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') {
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as never) : 'utf8');
  }
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/** Whether `meter` counts, decided once the head is out. */
function counts(meter: BodyMeter, req: LogRequest, res: LogResponse): boolean {
  if (meter.counting === undefined && res.headersSent) {
    if (noBody(req, res)) {
      meter.counting = false;
    } else {
      const announced = announcedLength(res);
      meter.announced = announced;
      meter.counting = announced === undefined;
    }
  }
  return meter.counting === true;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Wraps `res.write` and `res.end` to count the body's bytes when the response announces no
 * length; returns the meter, or undefined when the response cannot take the wrappers (made
 * non-extensible or frozen, read-only methods): its size is then the announced length or none.
 */
export function meterBody(req: LogRequest, res: ServerResponse): BodyMeter | undefined {
  const meter: BodyMeter = { counting: undefined, bytes: 0, ending: false, announced: undefined };
  const replacedWrite = res.write as Method;
  const replacedEnd = res.end as Method;
  // Named parameters and `apply` with `arguments`, as the writeHead wrapper (timing.ts).
  const countedWrite = function write(
    this: LogResponse,
    chunk: unknown,
    encoding?: unknown,
  ): unknown {
    if (meter.counting === false || meter.ending) {
      // biome-ignore lint/complexity/noArguments: pass the caller's arguments through unchanged
      return replacedWrite.apply(this, arguments as never);
    }
    // A write after the end sends nothing (Node reports it as an error).
    const ended = this.writableEnded;
    // biome-ignore lint/complexity/noArguments: as above
    const result = replacedWrite.apply(this, arguments as never);
    if (!ended && counts(meter, req, this)) meter.bytes += sizeOf(chunk, encoding);
    return result;
  };
  const countedEnd = function end(this: LogResponse, chunk: unknown, encoding?: unknown): unknown {
    // biome-ignore lint/complexity/noArguments: pass the caller's arguments through unchanged
    if (meter.counting === false) return replacedEnd.apply(this, arguments as never);
    const ended = this.writableEnded;
    meter.ending = true;
    let result: unknown;
    try {
      // biome-ignore lint/complexity/noArguments: as above
      result = replacedEnd.apply(this, arguments as never);
    } finally {
      meter.ending = false;
    }
    if (!ended && counts(meter, req, this)) meter.bytes += sizeOf(chunk, encoding);
    return result;
  };
  try {
    (res as { write: unknown }).write = countedWrite;
    (res as { end: unknown }).end = countedEnd;
  } catch {
    // A frozen or non-extensible response, or read-only methods: put back what was replaced.
    try {
      if (res.write === countedWrite) (res as { write: unknown }).write = replacedWrite;
    } catch {}
    return undefined;
  }
  return meter;
}

/**
 * A number, or text that is one, when it is a whole number (a size, a status); anything else
 * (empty text, a list of header values, a fraction) is no integer.
 */
export function integerOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return value !== '' && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The body's size in bytes for the line being made: 0 without a body, the announced length
 * when there is one, the bytes counted by the line's meter for a response that finished, and
 * otherwise undefined (no head, an unfinished response, no meter, a length that is no integer).
 */
export function bodyBytes(req: LogRequest, res: LogResponse): number | undefined {
  if (!res.headersSent) return undefined;
  if (noBody(req, res)) return 0;
  const meter = exchangeOfLine(req, res)?.meter;
  if (meter !== undefined) {
    if (meter.counting === true) return wholeBodyHandedOn(res) ? meter.bytes : undefined;
    if (meter.announced !== undefined) return integerOf(meter.announced);
  }
  return integerOf(announcedLength(res));
}

/** Whether the whole response was handed to the connection (`'finish'` was emitted). */
export function wholeBodyHandedOn(res: LogResponse): boolean {
  const finished = (res as { writableFinished?: unknown }).writableFinished;
  return typeof finished === 'boolean' ? finished : res.writableEnded;
}
