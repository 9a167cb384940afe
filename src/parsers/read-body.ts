// The one read pipeline every parser runs through. A parser contributes its charset policy and
// a `parse`; this file owns the rest, in body-parser's order:
//   already read? -> has a body? -> type matches? -> charset -> Content-Encoding ->
//   limit (Content-Length) -> read, counting decoded bytes against the limit -> verify ->
//   decode -> parse -> next().
// Every error after the type matched is delivered once the rest of the body is drained (up to
// a bound), so the client can read its response; `next` is called exactly once, inside the
// async context the middleware was called in, and no listener, stream or buffer is left behind.

import { AsyncResource } from 'node:async_hooks';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createError, errorKinds, HttpwareError, isHttpwareError, validStatus } from '../errors.js';
import { type CharsetPolicy, charsetExists, decode, stripBom } from './charset.js';
import { createDecompressor } from './inflate.js';
import { type ContentType, parseContentType } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import type { ParserMiddleware } from './types.js';

/** What a parser adds to the pipeline. */
export interface BodyFormat {
  /** Which charsets it decodes; null: it takes the bytes as they are (raw). */
  readonly charsets: CharsetPolicy;
  /** The decoded text (a Buffer for raw) -> `req.body`. Throw an error to refuse the body. */
  readonly parse: (body: string | Buffer, charset: string | null) => unknown;
}

type Next = (err?: unknown) => void;
type BodyRequest = IncomingMessage & { body?: unknown; rawBody?: Buffer };

/** Most bytes discarded after an error before the connection is marked to close instead. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** Longest wait for the rest of a body after an error before giving up on the connection. */
export const DRAIN_LIMIT_MS = 1000;

/**
 * Whether the request's body was already consumed, or can no longer come (on-finished's test,
 * which body-parser uses): a parser that finds this leaves `req.body` alone.
 */
function isFinished(req: IncomingMessage & { upgrade?: boolean }): boolean {
  const socket = req.socket;
  return Boolean(req.upgrade || !socket || !socket.readable || (req.complete && !req.readable));
}

/**
 * RFC 9112 sec 6.3: a request has a body when it has Transfer-Encoding or Content-Length
 * (even `0`); type-is reads any Content-Length that is a number.
 */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && !Number.isNaN(Number(length)))
  );
}

/** The middleware for one parser: options resolved once, the format's policy and parse. */
export function createReader(options: ResolvedOptions, format: BodyFormat): ParserMiddleware {
  // Clients send the same Content-Type header request after request: the last header's parse
  // and whether it matched are kept (per parser, as the match is this parser's), which spares
  // most requests an allocation, a scan of the header and the matching. A ContentType is never
  // changed once made, so sharing it between requests is safe.
  let lastHeader: string | undefined;
  let lastContentType: ContentType = parseContentType(undefined);
  let lastMatched = false;
  const contentTypeOf = (header: string | undefined): ContentType => {
    if (header !== lastHeader || header === undefined) {
      lastContentType = parseContentType(header);
      lastMatched = options.matchesType(lastContentType.type);
      lastHeader = header;
    }
    return lastContentType;
  };

  return function httpwareBodyParser(req, res, next) {
    if (isFinished(req)) {
      next();
      return;
    }
    const request = req as BodyRequest;
    if (!('body' in request)) request.body = undefined;
    if (!hasBody(req)) {
      next();
      return;
    }
    let contentType: ContentType | undefined;
    if (options.typeFunction !== null) {
      if (!options.typeFunction(req)) {
        next();
        return;
      }
    } else {
      contentType = contentTypeOf(req.headers['content-type']);
      if (!lastMatched) {
        next();
        return;
      }
    }
    // From here the body is ours, and the rest is asynchronous.
    read(request, res, inCallersContext(next), options, format, contentType);
  };
}

/**
 * `next`, run in the async context the middleware was called in, so AsyncLocalStorage state
 * survives into it (stream events arrive in the socket's context). Not `AsyncResource.bind`:
 * on Node 20 it defines two deprecation-wrapped accessors on every bound function, measured
 * at 20-35 µs a call here against under 1 µs for this, far more than parsing a small body.
 * A bound `runInAsyncScope` (raw-body's way) passes `next` exactly the arguments it is given.
 */
function inCallersContext(next: Next): Next {
  const resource = new AsyncResource('httpware.parsers');
  return resource.runInAsyncScope.bind(resource, next, null) as Next;
}

function read(
  req: BodyRequest,
  res: ServerResponse,
  next: Next,
  options: ResolvedOptions,
  format: BodyFormat,
  contentType: ContentType | undefined,
): void {
  let settled = false;
  let decompressor: Transform | null = null;
  // Bytes of the request already taken off the socket (identity bodies), for drain's budget.
  let consumed = 0;

  const succeed = () => {
    if (settled) return;
    settled = true;
    next();
  };
  const fail = (err: unknown) => {
    if (settled) return;
    settled = true;
    discard(decompressor, req);
    drain(req, res, consumed, () => next(err));
  };

  let charset: string | null = null;
  if (format.charsets !== null) {
    contentType ??= parseContentType(req.headers['content-type']);
    // The Content-Type's charset is lower-cased; `defaultCharset` is used as given, as
    // body-parser does (`verify` sees it so, and a json parser refuses 'UTF-8' as a default).
    charset = contentType.charset || options.defaultCharset;
    if (!format.charsets(charset)) {
      fail(createError('charset.unsupported', { charset }));
      return;
    }
    if (!charsetExists(charset)) {
      fail(createError('charset.unsupported', { charset: charset.toLowerCase() }));
      return;
    }
  }

  const coding = (req.headers['content-encoding'] || 'identity').toLowerCase();
  if (coding !== 'identity') {
    if (!options.inflate) {
      // body-parser sets `encoding`; its README names the property `charset`: both are set.
      fail(
        createError(
          'encoding.unsupported',
          { encoding: coding, charset: coding },
          { message: 'content encoding unsupported' },
        ),
      );
      return;
    }
    decompressor = createDecompressor(coding);
    if (decompressor === null) {
      fail(createError('encoding.unsupported', { encoding: coding }));
      return;
    }
  }

  // The Content-Length counts encoded bytes, so it is only compared for identity bodies. A
  // length over the limit is refused before a byte is read.
  const declared = req.headers['content-length'];
  const length =
    decompressor === null && declared !== undefined && !Number.isNaN(Number(declared))
      ? Number.parseInt(declared, 10)
      : null;
  if (length !== null && length > options.limit) {
    fail(createError('entity.too.large', { expected: length, length, limit: options.limit }));
    return;
  }
  // Bytes only: a decoder set on the request would hand over strings cut at any character.
  if (req.readableEncoding !== null) {
    fail(createError('stream.encoding.set', {}));
    return;
  }
  // The stream read is the decompressor for an encoded body (a fresh one is always readable).
  if (decompressor === null && req.readable === false) {
    fail(createError('stream.not.readable', {}));
    return;
  }

  const source: NodeJS.ReadableStream = decompressor ?? req;
  const limit = options.limit;
  let received = 0;
  let chunks: Buffer[] = [];
  // A UTF-8 body in several chunks that nothing needs as bytes (no `verify`, no `rawBody`) is
  // decoded as it arrives, as raw-body does for body-parser: the chunks can then go as soon as
  // they are read, and a 1 MB body is never held as chunks, a joined Buffer and a string at
  // once. The decoder carries a character split between two chunks over to the next one.
  const decodeAsRead = charset === 'utf-8' && options.verify === null && !options.rawBody;
  let decoder: StringDecoder | null = null;
  let decoded = '';

  const cleanup = () => {
    source.removeListener('data', onData);
    source.removeListener('end', onEnd);
    req.removeListener('close', onClose);
    req.removeListener('error', onAborted);
    if (decompressor !== null) decompressor.removeListener('error', onInflateError);
    chunks = [];
  };
  const stop = (err: unknown) => {
    cleanup();
    fail(err);
  };

  // Counted as they arrive, after inflation: a small compressed body that inflates past the
  // limit is stopped here, holding at most the limit plus one chunk in memory.
  function onData(chunk: Buffer) {
    received += chunk.length;
    if (decompressor === null) consumed = received;
    if (received > limit) stop(createError('entity.too.large', { limit, received }));
    else if (decoder !== null) decoded += decoder.write(chunk);
    else if (decodeAsRead && chunks.length === 1) {
      // The second chunk: from here on the body is decoded as it comes. A body in one chunk
      // (most small ones) is decoded once it ends, without a decoder.
      decoder = new StringDecoder('utf8');
      decoded = decoder.write(chunks[0] as Buffer) + decoder.write(chunk);
      chunks = [];
    } else chunks.push(chunk);
  }
  function onEnd() {
    if (length !== null && received !== length) {
      stop(createError('request.size.invalid', { expected: length, length, received }));
      return;
    }
    // One chunk is the body as it is: no copy.
    const body =
      decoder !== null
        ? null
        : chunks.length === 1
          ? (chunks[0] as Buffer)
          : Buffer.concat(chunks, received);
    cleanup();
    if (decompressor !== null) {
      discard(decompressor, req);
      decompressor = null;
      req.resume();
    }
    if (body !== null) finish(body);
    else finishText(stripBom(decoded + (decoder as StringDecoder).end()));
  }
  function onAborted() {
    stop(
      createError('request.aborted', { code: 'ECONNABORTED', expected: length, length, received }),
    );
  }
  function onClose() {
    // A request closed before its body ended was cut short. This also covers Node's `aborted`
    // event, which is always followed by `close` (and by `error`, both already listened to).
    if (!req.complete) onAborted();
  }
  function onInflateError(err: Error) {
    stop(createError('entity.inflate.failed', {}, { message: err.message, cause: err }));
  }

  function finish(body: Buffer) {
    if (options.rawBody) req.rawBody = body;
    if (options.verify !== null) {
      try {
        options.verify(req, res, body, charset);
      } catch (thrown) {
        fail(adopt(thrown, 'entity.verify.failed', body));
        return;
      }
    }
    let text: string | Buffer = body;
    try {
      if (charset !== null) text = decode(body, charset);
    } catch (thrown) {
      fail(adopt(thrown, 'entity.parse.failed', text));
      return;
    }
    finishText(text);
  }

  function finishText(text: string | Buffer) {
    try {
      req.body = format.parse(text, charset);
    } catch (thrown) {
      fail(isHttpwareError(thrown) ? thrown : adopt(thrown, 'entity.parse.failed', text));
      return;
    }
    succeed();
  }

  req.on('close', onClose);
  req.on('error', onAborted);
  if (decompressor !== null) {
    decompressor.on('error', onInflateError);
    req.pipe(decompressor);
  }
  source.on('data', onData);
  source.on('end', onEnd);
}

/**
 * An error thrown by application code (`verify`, a `reviver`) as body-parser reports it (through
 * `http-errors`): the thrown error's own `status` (or `statusCode`) is kept when it is an HTTP
 * status, and becomes 500 when it is something else; an error with its own truthy `type` is the
 * application's own kind and passes through with `status`, `statusCode`, `expose` and `body`
 * added; any other is wrapped in an HttpwareError of the given kind, the thrown value as its
 * `cause`. A thrown string is the message; another thrown object gets the status's own text.
 */
function adopt(
  thrown: unknown,
  type: 'entity.verify.failed' | 'entity.parse.failed',
  body: Buffer | string,
): unknown {
  const fallback = errorKinds[type].status;
  const details = type === 'entity.parse.failed' ? { body: String(body) } : { body };
  if (!(thrown instanceof Error)) {
    const message =
      typeof thrown === 'object' && thrown !== null
        ? (STATUS_CODES[fallback] as string)
        : String(thrown);
    return new HttpwareError(type, details, { message, cause: thrown });
  }
  const own = thrown as Error & Record<string, unknown>;
  // The status `http-errors` settles on: one it keeps, otherwise 500.
  const status = validStatus(own.status || own.statusCode || fallback) ?? 500;
  if (own.type) {
    if (own.status !== status || typeof own.expose !== 'boolean') {
      Object.assign(thrown, { status, statusCode: status, expose: status < 500 });
    }
    Object.assign(thrown, { body });
    return thrown;
  }
  return new HttpwareError(type, details, { message: thrown.message, status, cause: thrown });
}

/** Stops and drops a decompression stream; a late zlib error then has a listener to land on. */
function discard(decompressor: Transform | null, req: IncomingMessage): void {
  if (decompressor === null) return;
  req.unpipe(decompressor);
  decompressor.on('error', ignore);
  decompressor.destroy();
}

function ignore(): void {}

/**
 * Reads and throws away the rest of a request so its response can be read by the client and
 * the connection reused. A client that keeps sending past DRAIN_LIMIT_BYTES, or for longer than
 * DRAIN_LIMIT_MS, gets its answer anyway, and the connection is closed after it; so does one
 * that announced more than that in its Content-Length, without waiting for it.
 */
function drain(
  req: IncomingMessage,
  res: ServerResponse,
  consumed: number,
  callback: () => void,
): void {
  if (isFinished(req)) {
    callback();
    return;
  }
  const declared = Number(req.headers['content-length']);
  if (declared - consumed > DRAIN_LIMIT_BYTES) {
    closeAfterResponse(res);
    req.resume();
    callback();
    return;
  }
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    req.removeListener('data', onData);
    req.removeListener('end', done);
    req.removeListener('close', done);
    req.removeListener('aborted', done);
    req.removeListener('error', done);
    callback();
  };
  const giveUp = () => {
    closeAfterResponse(res);
    done();
  };
  const onData = (chunk: Buffer | string) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT_BYTES) giveUp();
  };
  const timer = setTimeout(giveUp, DRAIN_LIMIT_MS);
  req.on('data', onData);
  req.on('end', done);
  req.on('close', done);
  req.on('aborted', done);
  req.on('error', done);
  req.resume();
}

/** Marks the connection to close once the response is sent (HTTP/1.1 `Connection: close`). */
function closeAfterResponse(res: ServerResponse): void {
  res.shouldKeepAlive = false;
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
