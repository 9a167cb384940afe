// The Node door of a parser's two forms (define.ts): the middleware (createReader) and `read`
// given a Node request (readBody). A Web `Request` is web-body.ts's; both read through one
// pipeline (pipeline.ts: charset, coding, limits, verify, decode, parse, schema), after the same
// prologue (prologue.ts), so a body gets the same answer, and the same error, whichever way it
// came in. This side, in body-parser's order:
//   already read? -> has a body? -> type matches? -> [the pipeline] -> next() (or the promise).
// Every error after the type matched is delivered once the rest of the body is drained (up to
// a bound; a body that timed out is not drained, its connection is closed), so the client can
// read its response; `next` is called exactly once, inside the async context the middleware
// was called in, and no stream, timer or buffer is left behind, nor a listener that could
// still be called (see cleanup and Connection).
//
// The middleware (createReader) and `read` (readBody) make the cheap decisions that need no
// state, each its own way: the middleware passes over a request that is not its own (already
// read, no body, not its type), where `read`, asked for this body, refuses one it cannot read.
// A body that is read gets a NodeBodyReader: the pipeline's BodyReader, one object per request
// whose methods are the steps in order, with what only a Node request has (its headers object,
// stream events, HTTP/2 resets, draining and closing the connection). The middleware is that
// reader with `next` as its end; `read`, the same reader with a promise's.

import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerHttp2Stream } from 'node:http2';
import type { Readable, Transform } from 'node:stream';
import { createError, type HttpwareError } from '../errors.js';
import { recordFailure } from '../failures.js';
import { contentLengthOf, isContentLength } from '../http-facts.js';
import { Blocks, STAGE_BYTES } from './gather.js';
import { parseContentType } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import {
  type BodyFormat,
  BodyReader,
  type BodyTarget,
  type Done,
  DRAIN_LIMIT_BYTES,
  DRAIN_LIMIT_MS,
  discard,
  ignore,
} from './pipeline.js';
import {
  abortedBeforeRead,
  ContentTypes,
  claimBody,
  readStarted,
  typeMatches,
  unsupportedType,
  WEB_BODY_TIMEOUT_MS,
  type WebPipeline,
} from './prologue.js';
import type { ParserMiddleware, WebRequest } from './types.js';

export { DRAIN_LIMIT_MS } from './pipeline.js';

type Next = (err?: unknown) => void;
type BodyRequest = IncomingMessage & BodyTarget;
/** node:http2's compatibility request, as far as this file reads it. */
type Http2Request = IncomingMessage & { readonly stream: ServerHttp2Stream };

/**
 * Whether the request's body was already consumed, or can no longer come (on-finished's test,
 * which body-parser uses): a parser that finds this leaves `req.body` alone.
 */
function bodyGone(req: IncomingMessage & { upgrade?: boolean }): boolean {
  const socket = req.socket;
  return Boolean(req.upgrade || !socket || !socket.readable || (req.complete && !req.readable));
}

/**
 * RFC 9112 sec 6.3: an HTTP/1.x request has a body when it has Transfer-Encoding or
 * Content-Length (even `0`); type-is reads any Content-Length that is a number.
 * HTTP/2 has no Transfer-Encoding, and a Content-Length is optional (RFC 9113 sec 8.1.1): a
 * stream carries a body unless its HEADERS frame ended it (END_STREAM), which node:http2 tells
 * as `stream.endAfterHeaders` (Node 10.11 and later). A body that ends with an empty DATA frame
 * is then an empty body, as a chunked one of no chunks is on HTTP/1.1. Asked only of HTTP/2
 * requests without either header, so HTTP/1.1 pays one comparison, and only for requests
 * without a body.
 */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (
    req.headers['transfer-encoding'] !== undefined ||
    isContentLength(length) ||
    (req.httpVersionMajor === 2 && !(req as Http2Request).stream.endAfterHeaders)
  );
}

/** The middleware for one parser: options resolved once, the format's policy and parse. */
export function createReader(options: ResolvedOptions, format: BodyFormat): ParserMiddleware {
  // The last Content-Type's parse and match are kept per parser, as the match is this parser's.
  const types = new ContentTypes(options);

  const legacyEmptyBody = options.legacyEmptyBody;

  return function httpwareBodyParser(req, res, next) {
    // The legacyEmptyBody option: body-parser 1.x's `req.body = req.body || {}` (for undefined
    // only), before every check that passes the request over; one comparison when it is off.
    if (legacyEmptyBody && (req as BodyRequest).body === undefined) (req as BodyRequest).body = {};
    if (bodyGone(req)) {
      next();
      return;
    }
    const request = req as BodyRequest;
    if (!('body' in request)) request.body = undefined;
    if (!hasBody(req)) {
      next();
      return;
    }
    const contentType =
      options.typeFunction === null ? types.of(req.headers['content-type']) : undefined;
    // What the application's type function throws is an error of the request, for `next` (as
    // Express would make of it), never an exception out of node:http's 'request' event.
    const matched = typeMatches(types, req, true, next);
    if (matched !== true) {
      // Not this parser's type: passed over (null: `next` has had the type function's error).
      if (matched === false) next();
      return;
    }
    // A response already sent (a timeout middleware answered, say) leaves nobody to read the
    // body for: node:http discards an unread one once the response has finished, so reading
    // it now would make `{}` of a body that never came. Checked here, past the requests that
    // have no body or are not this parser's, so they pay nothing for it.
    if (res.writableEnded) {
      next();
      return;
    }
    // From here the body is ours, and the rest is asynchronous.
    new NodeBodyReader(request, res, inCallersContext(next), request, options, format).start(
      contentType,
    );
  };
}

/**
 * A parser's `read`: this request's body through the same reader, as a promise. The caller
 * asked for this body, so where the middleware passes a request over, `read` answers:
 * - a body already read, even in part (by a parser, or by anything that took data off the
 *   stream), cannot be read again: 500 `stream.not.readable`; a request whose client left
 *   before its body was read: 400 `request.aborted`. Nothing is guessed from `req.body`;
 * - a request without a body (RFC 9112 sec 6.3: neither header, so a body of length zero) is
 *   read as an empty one, and its type is not checked;
 * - a Content-Type the `type` option does not match is a 415 `media.type.unsupported`, once the
 *   body is drained as for any error: a JSON endpoint keeps refusing the `text/plain` posts a
 *   browser sends cross-site without a preflight.
 * `req.body` is left alone: the body is what the promise resolves to.
 */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse | null,
  options: ResolvedOptions,
  format: BodyFormat,
  payload: Readable | null = null,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const refused = payload === null ? unreadable(req, res) : unreadablePayload(req, payload);
    if (refused !== null) {
      reject(refused);
      return;
    }
    claimBody(payload ?? req);
    const types = new ContentTypes(options);
    const withBody = hasBody(req);
    const header = req.headers['content-type'];
    const contentType = withBody && options.typeFunction === null ? types.of(header) : undefined;
    const matched = typeMatches(types, req, withBody, reject);
    if (matched === null) return;
    const done: Done = (err, body) => (err === undefined ? resolve(body) : reject(err));
    const reader =
      payload === null
        ? new NodeBodyReader(req as BodyRequest, res, done, null, options, format)
        : new PayloadBodyReader(req as BodyRequest, res, done, null, options, format, payload);
    if (matched) reader.start(contentType);
    else reader.refuse(unsupportedType(contentType ?? parseContentType(header)));
  });
}

/** What srvx's Node adapter keeps, as `request.runtime.node`, of the request it made a Request of. */
export interface NodeBehind {
  readonly req: IncomingMessage & { rawBody?: unknown };
  readonly res?: ServerResponse | undefined;
  readonly maxRequestBodySize?: unknown;
}

/**
 * The Node request behind a Web Request that srvx's Node adapter made, when its body can be
 * read off it directly, as srvx's own `request.json()` does: the Request's body stream is made
 * by `Readable.toWeb` only when something asks for it, and reading through it costs a small
 * body as much again as reading it. node:http never hands over more than the Content-Length
 * announced, so the Node door's pipeline reads the body with the same checks. Only a request
 * nothing has touched yet qualifies: a body stream already made flows the request (then its
 * stream is read, as any Request's), and so do requests srvx bounds itself
 * (`maxRequestBodySize`), that carry a body read before (`rawBody`), or without a body (GET,
 * HEAD: srvx gives them none). `verify` and `rawBody` are given the Request, so a parser with
 * either reads the Request's stream. @hono/node-server keeps its Node request in private
 * symbols: its Requests are read through their stream.
 */
export function nodeRequestBehind(
  request: WebRequest,
  options: ResolvedOptions,
): NodeBehind | null {
  if (options.verify !== null || options.rawBody) return null;
  const node = (request as { runtime?: { node?: NodeBehind } }).runtime?.node;
  const req = node?.req;
  if (typeof req?.on !== 'function' || typeof req.headers !== 'object') return null;
  if ((node as NodeBehind).maxRequestBodySize !== undefined || 'rawBody' in req) return null;
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  const untouched =
    req.readableFlowing === null && !req.readableDidRead && !req.readableEnded && !req.destroyed;
  return untouched ? (node as NodeBehind) : null;
}

/**
 * `read` of a Web Request through the Node request behind it (see nodeRequestBehind): the Web
 * door's answers (its prologue, the Request given to a type function, its default
 * `bodyTimeout`, a failure recorded on the Request for fetchLogger), the Node door's reading.
 */
export function readBehind(
  request: WebRequest,
  node: NodeBehind,
  { options, format, types }: WebPipeline,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (request.bodyUsed || readStarted(request)) {
      reject(createError('stream.not.readable', {}));
      return;
    }
    claimBody(request);
    const contentType = types.of(node.req.headers['content-type']);
    const matched = typeMatches(types, request, true, reject);
    if (matched === null) return;
    const done: Done = (err, body) => {
      if (err === undefined) resolve(body);
      else {
        recordFailure(request, err);
        reject(err);
      }
    };
    const req = node.req as BodyRequest;
    const reader = new BehindBodyReader(req, node.res ?? null, done, null, options, format);
    if (matched) reader.start(contentType);
    else reader.refuse(unsupportedType(contentType));
  });
}

/**
 * Why `read` cannot read this request's body, if it cannot. Besides a body already read (even
 * in part, or read by an earlier `read`) or an upgraded connection:
 * - a response already sent: node:http discards the body it left unread once the response has
 *   finished, and no one is left to answer about it;
 * - a flowing request: something else consumes it (a 'data' listener, a pipe, `resume()`), or
 *   node:http is discarding it: once a response finished with its body unread, node:http calls
 *   `resume()` on the request (its `_dump`) and pushes nothing more into it, so a reader then
 *   sees an empty body (`{}`, or `request.size.invalid` against a Content-Length). That resume
 *   is the public sign of the discarding on every Node since 0.10 (`readableFlowing` is true,
 *   while nothing has been read yet when the body is still to come), so no private field
 *   (`_dumped`) is read. A request nobody touched has `readableFlowing` null.
 */
function unreadable(
  req: IncomingMessage & { upgrade?: boolean },
  res: ServerResponse | null,
): HttpwareError | null {
  // node:http2 ends a request whose client reset its stream as if the body were whole
  // (`readableEnded`, `complete`): its public `aborted` is what tells the body was cut.
  if (req.httpVersionMajor === 2 && (req as { aborted?: unknown }).aborted === true) {
    return abortedBeforeRead(announcedLength(req));
  }
  if (
    req.readableDidRead ||
    req.readableEnded ||
    req.readableFlowing === true ||
    req.upgrade ||
    res?.writableEnded === true ||
    readStarted(req)
  ) {
    return createError('stream.not.readable', {});
  }
  if (req.destroyed) {
    return req.complete
      ? createError('stream.not.readable', {})
      : abortedBeforeRead(announcedLength(req));
  }
  return null;
}

/**
 * Why a stream that stands for the request's body (a Fastify `preParsing` hook's) cannot be
 * read: its request's client left, the stream failed, or it was read already or is being read
 * by someone else (flowing). The request itself is not asked: it is the hook's to read, and flows into it.
 */
function unreadablePayload(req: IncomingMessage, payload: Readable): unknown {
  if (req.destroyed && !req.complete) return abortedBeforeRead(announcedLength(req));
  // It failed before it could be read (its hook's stream errs at the first byte it is given).
  if (payload.errored) return payloadFailure(payload.errored);
  if (
    payload.readableDidRead ||
    payload.readableEnded ||
    payload.readableFlowing === true ||
    payload.destroyed ||
    readStarted(payload)
  ) {
    return createError('stream.not.readable', {});
  }
  return null;
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

/** What a decompressor may hold, not yet inflated, before the request is paused for it (1 MiB). */
const PIPE_PAUSE_BYTES = 64 * STAGE_BYTES;

/**
 * The Node door: a body off an `IncomingMessage` (HTTP/1.x, or node:http2's compatibility
 * request), its bytes by `data` and `end` events, cut short by its connection's `close`
 * (HTTP/1.x) or its own `aborted` or `close` (HTTP/2), and its rest read off after an error
 * so the response can be read (see drain).
 */
class NodeBodyReader extends BodyReader<BodyRequest> {
  /** An HTTP/1.x request's connection, watched while the body comes (null: HTTP/2). */
  private connection: Connection | null = null;
  /** An HTTP/2 request's own `close` and `aborted` listeners (null: HTTP/1.x). */
  private onStreamClose: (() => void) | null = null;
  private onStreamAborted: (() => void) | null = null;
  private onPipedData: ((chunk: Buffer) => void) | null = null;
  private onPipedEnd: (() => void) | null = null;

  protected contentTypeHeader(): string | undefined {
    return this.req.headers['content-type'];
  }

  protected encodingHeader(): string | undefined {
    return this.req.headers['content-encoding'];
  }

  protected announced(): number | null {
    return contentLengthOf(this.req.headers['content-length']);
  }

  /** The stream the body's bytes come from: the request itself. */
  protected body(): Readable {
    return this.req;
  }

  /** Node's server bounds a request already (`requestTimeout`): none unless the option says. */
  protected bodyTimeout(): number {
    return this.options.bodyTimeout ?? 0;
  }

  protected checkSource(): HttpwareError | null {
    const body = this.body();
    // Bytes only: a decoder set on the request would hand over strings cut at any character.
    if (body.readableEncoding !== null) return createError('stream.encoding.set', {});
    // Only an identity body is refused so: body-parser reads an encoded one through its
    // decompressor (a fresh one is always readable), and so does this, even read whole.
    if (this.coding === null && body.readable === false) {
      return createError('stream.not.readable', {});
    }
    return null;
  }

  protected collect(): void {
    const req = this.req;
    if (req.httpVersionMajor === 2 || !req.socket) {
      this.onStreamClose = () => this.connectionClosed();
      this.onStreamAborted = () => this.aborted();
      req.on('close', this.onStreamClose);
      req.on('aborted', this.onStreamAborted);
    } else {
      this.connection = connectionOf(req.socket);
      this.connection.watch(this);
    }
    if (this.coding !== null && !this.whole) this.streamThrough(this.coding.stream(), null);
    else this.listen(this.body());
  }

  /**
   * The request's bytes written into the decompressor as `pipe` would, waiting for its `drain`,
   * but small chunks copied together into blocks first (Blocks): a body sent a byte at a time
   * would otherwise cost zlib a call and a queued write per byte (512 KiB of gzip so: 16 s of
   * CPU and 25 MB of peak memory). The request is paused only once the decompressor holds
   * PIPE_PAUSE_BYTES, not at its 16 KiB mark as `pipe` would: a paused request still takes in
   * what its socket already read, and one-byte chunks queued there are a Buffer object each
   * (a 512 KiB body so: 23-36 MB at the peak when it paused at 16 or 64 KiB, 1-2 MB at 1 MiB).
   */
  protected pipeInto(decompressor: Transform): void {
    const req = this.req;
    const blocks = new Blocks(STAGE_BYTES, (bytes) => {
      if (!decompressor.write(bytes) && decompressor.writableLength >= PIPE_PAUSE_BYTES) {
        req.pause();
      }
    });
    this.onPipedData = (chunk: Buffer) => blocks.write(chunk);
    this.onPipedEnd = () => {
      blocks.flush();
      decompressor.end();
    };
    decompressor.on('drain', () => req.resume());
    req.on('data', this.onPipedData);
    req.on('end', this.onPipedEnd);
    req.resume();
  }

  protected cutShort(): boolean {
    return this.req.httpVersionMajor === 2 && wasReset((this.req as Http2Request).stream);
  }

  /** Told by the Connection (HTTP/1.x), or by the request's own `close` (HTTP/2). */
  connectionClosed(): void {
    // A request (HTTP/1.x: its connection) closed before its body ended was cut short. An
    // HTTP/2 request is `complete` once aborted: there the `aborted` listener tells.
    if (!this.req.complete) this.aborted();
  }

  protected dropDecompressor(ended: boolean): void {
    const { req, onPipedData, onPipedEnd } = this;
    if (onPipedData !== null && onPipedEnd !== null) {
      req.removeListener('data', onPipedData);
      req.removeListener('end', onPipedEnd);
    }
    discard(this.decompressor as Transform);
    // What is left of the request (nothing, once it ended) flows off; else it waits for drain.
    if (ended) req.resume();
    else req.pause();
  }

  /**
   * A source that ended keeps its `data` and `end` listeners: it can no longer call them, and
   * removing two listeners cost a small body a twentieth of its whole read (docs/benchmarks.md).
   */
  protected cleanup(ended = false): void {
    const { req, source, connection } = this;
    if (source !== null && !ended) {
      source.removeListener('data', this.onData);
      source.removeListener('end', this.onEnd);
    }
    const { onStreamClose, onStreamAborted } = this;
    if (connection !== null) connection.unwatch(this);
    else if (onStreamClose !== null && onStreamAborted !== null) {
      req.removeListener('close', onStreamClose);
      req.removeListener('aborted', onStreamAborted);
    }
    this.unwatchDecompressor();
  }

  /**
   * Reads and throws away the rest of a request so its response can be read by the client and
   * the connection reused. A client that keeps sending past DRAIN_LIMIT_BYTES, or for longer
   * than DRAIN_LIMIT_MS, gets its answer anyway, and the connection is closed after it; so
   * does one that announced more than that in its Content-Length, or whose body timed out,
   * without waiting for it.
   */
  protected drain(callback: () => void): void {
    const { req, res } = this;
    if (bodyGone(req)) {
      callback();
      return;
    }
    const declared = announcedLength(req);
    if (this.abandonRest || (declared !== null && declared - this.consumed > DRAIN_LIMIT_BYTES)) {
      abandon(req, res);
      callback();
      return;
    }
    this.drainStream(req, callback);
  }

  /** Reads `stream` off and throws it away, within DRAIN_LIMIT_BYTES and DRAIN_LIMIT_MS. */
  protected drainStream(stream: Readable, callback: () => void): void {
    const { req, res } = this;
    let discarded = 0;
    const stopListening = () => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', done);
      stream.removeListener('close', done);
      stream.removeListener('aborted', done);
      stream.removeListener('error', done);
    };
    const done = () => {
      stopListening();
      callback();
    };
    const giveUp = () => {
      stopListening();
      abandon(req, res);
      callback();
    };
    const onData = (chunk: Buffer | string) => {
      discarded += chunk.length;
      if (discarded > DRAIN_LIMIT_BYTES) giveUp();
    };
    const timer = setTimeout(giveUp, DRAIN_LIMIT_MS);
    stream.on('data', onData);
    stream.on('end', done);
    stream.on('close', done);
    stream.on('aborted', done);
    stream.on('error', done);
    stream.resume();
  }
}

/** A Web Request's body read off the Node request behind it: the Web door's time bound. */
class BehindBodyReader extends NodeBodyReader {
  protected override bodyTimeout(): number {
    return this.options.bodyTimeout ?? WEB_BODY_TIMEOUT_MS;
  }
}

/**
 * A body read off a stream that stands for the request's: what a Fastify `preParsing` hook
 * returned (@fastify/compress's decompressor, a decryption or a tee), which Fastify hands its
 * content-type parsers in place of `request.raw`, and which the hook feeds from the request. The
 * request still tells everything else: the Content-Type, its connection closing (a client that
 * left), where an error's answer goes. What differs from NodeBodyReader:
 * - the stream is the body as the hook made it: a Content-Encoding the request names was the
 *   hook's to undo (Fastify's own parsers decode none), so it is not decoded a second time;
 * - the Content-Length counts the bytes on the wire, not the stream's: one over the limit is
 *   refused unread (as Fastify does), but the stream's bytes are not held to it;
 * - the stream may push strings (Fastify takes them as UTF-8), and may fail: an error it emits
 *   with an error status of its own as a number in `statusCode` (@fastify/compress gives a
 *   corrupt body a 400) is the answer, any other a 400 `entity.inflate.failed` caused by it;
 * - after an error, the rest is drained off the stream, which passes it on from the request.
 */
class PayloadBodyReader extends NodeBodyReader {
  private watching = false;

  constructor(
    req: BodyRequest,
    res: ServerResponse | null,
    done: Done,
    target: BodyTarget | null,
    options: ResolvedOptions,
    format: BodyFormat,
    private readonly payload: Readable,
  ) {
    super(req, res, done, target, options, format);
  }

  protected override body(): Readable {
    return this.payload;
  }

  protected override encodingHeader(): string | undefined {
    return undefined;
  }

  protected override announced(): number | null {
    return null;
  }

  protected override checkSource(): HttpwareError | null {
    const length = announcedLength(this.req);
    const limit = this.options.limit;
    if (length !== null && length > limit) {
      return createError('entity.too.large', { expected: length, length, limit });
    }
    return this.payload.readable === false ? createError('stream.not.readable', {}) : null;
  }

  protected override listen(source: NodeJS.ReadableStream): void {
    this.source = source;
    this.watching = true;
    source.on('data', this.onPayloadData);
    source.on('end', this.onEnd);
    source.on('error', this.onPayloadError);
  }

  private readonly onPayloadData = (chunk: Buffer | string): void => {
    this.onData(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onPayloadError = (err: Error): void => {
    this.stop(payloadFailure(err));
  };

  protected override cleanup(ended = false): void {
    super.cleanup(ended);
    if (!this.watching) return;
    this.watching = false;
    const payload = this.payload;
    payload.removeListener('data', this.onPayloadData);
    payload.removeListener('end', this.onEnd);
    payload.removeListener('error', this.onPayloadError);
    // The hook's stream may still fail once nobody reads it: not an exception of the process.
    payload.on('error', ignore);
  }

  protected override drain(callback: () => void): void {
    const payload = this.payload;
    if (payload.readableEnded || payload.destroyed) callback();
    else this.drainStream(payload, callback);
  }
}

/** What a preParsing hook's stream failed with, as the request's error (see PayloadBodyReader). */
function payloadFailure(err: Error): unknown {
  // Fastify's rule for a stream's error: its own `statusCode`, if an error status as a number.
  const status = (err as Error & { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status <= 599) return err;
  return createError('entity.inflate.failed', {}, { message: err.message, cause: err });
}

/**
 * Whether an HTTP/2 request that ended was cut short by its client. A stream the client resets
 * once its response was sent gets no `aborted` (node:http2 emits it only while the response is
 * being written), yet its request ends as if the body were whole. A body that did end
 * (END_STREAM) ended its stream's own readable side, and the stream, if closed already, closed
 * with NO_ERROR; a reset with an error code shows in `rstCode`. A reset with NO_ERROR (what
 * node:http2's client sends for `stream.destroy()`) is reported by node:http2 exactly as the end
 * of the body, and cannot be told from it.
 */
function wasReset(stream: ServerHttp2Stream): boolean {
  return !stream.readableEnded || (stream.rstCode ?? 0) !== 0;
}

/**
 * What tells an HTTP/1.x reader that its body can no longer come: its connection closing. Not
 * the request: node:http aborts (destroys) a request whose client left only while its response
 * is pending; once the response has finished (a timeout middleware answered while the body was
 * still coming), a client that leaves closes the socket and nothing else, and a reader
 * listening to the request would wait for ever. Every other end of a body cut short closes the
 * socket too: a client that leaves, a request the application destroys (node:http then
 * destroys its socket), a malformed chunk. (node:http emits the request's `error` only when it
 * has a listener, so none is needed to keep one from being thrown.)
 *
 * A connection gets one `close` listener, with its first body, for its whole life, and tells
 * the readers of that moment: a keep-alive connection's later requests add and remove no
 * listener (a listener added and removed per body was a twentieth of a small body's read).
 * Most of the time one body is read at once; pipelined requests that came in one packet are
 * handed over before the first one's body has ended, and their readers wait in a Set (kept
 * beside the one slot: a Set's add and delete cost every request ~500 instructions).
 *
 * On HTTP/2 the request's own `close` and `aborted` tell: its session may carry other streams.
 */
class Connection {
  private reader: NodeBodyReader | null = null;
  private others: Set<NodeBodyReader> | null = null;

  watch(reader: NodeBodyReader): void {
    if (this.reader === null) {
      this.reader = reader;
      return;
    }
    this.others ??= new Set();
    this.others.add(reader);
  }

  unwatch(reader: NodeBodyReader): void {
    if (this.reader === reader) this.reader = null;
    else this.others?.delete(reader);
  }

  readonly closed = (): void => {
    const { reader, others } = this;
    this.reader = null;
    this.others = null;
    reader?.connectionClosed();
    if (others !== null) for (const other of others) other.connectionClosed();
  };
}

/** The Connection of each HTTP/1.x socket that had a body read: nothing is attached to it. */
const connections = new WeakMap<object, Connection>();

function connectionOf(socket: NodeJS.EventEmitter): Connection {
  let connection = connections.get(socket);
  if (connection === undefined) {
    connection = new Connection();
    connections.set(socket, connection);
    socket.once('close', connection.closed);
  }
  return connection;
}

function announcedLength(req: IncomingMessage): number | null {
  return contentLengthOf(req.headers['content-length']);
}

/**
 * Gives up on the rest of a body: none of it is read once the response is sent.
 *
 * HTTP/1.x can stop a body only by closing the connection: `Connection: close`. The request
 * is also ended here, as node:http ends one when its last byte arrives (`complete`, then the
 * end of the stream), because an error handler may wait for that end before it answers:
 * Express's and Connect's default one (finalhandler, through on-finished) does, so a client
 * that stops sending mid-body would otherwise never get the 413 (body-parser, which waits for
 * the end itself, never calls `next` at all). What the connection still brings is refused by
 * the ended request and goes nowhere; the connection closes once the response is sent.
 *
 * HTTP/2 forbids connection-specific headers (RFC 9113 sec 8.2.2; node:http2 drops one with
 * an UnsupportedWarning) and stops a body by its stream alone: once the response is written,
 * RST_STREAM with NO_ERROR asks the client to stop sending (RFC 9113 sec 8.1), and the
 * session's other streams go on. node:http2 does this by itself only for a body nobody read.
 * Its request cannot be ended early (its stream pushes whatever else comes into it, an error
 * with no listener once it has ended), so an error handler that waits for the end of an
 * HTTP/2 request (Connect's default) answers only when the client ends or resets the stream.
 *
 * Under `read` without a response (no `res` option, no Express `req.res`), an HTTP/1.x
 * connection cannot be marked to close, and a request ended early would then meet the rest of
 * its body on a connection kept alive: the rest is left to flow off unread, as Node does with
 * any body a handler did not read (bounded by the server's `requestTimeout`).
 */
function abandon(req: IncomingMessage, res: ServerResponse | null): void {
  if (req.httpVersionMajor === 2) {
    const stream = (req as Http2Request).stream;
    // Closed before the response is written, the stream would take the response with it.
    if (stream.writableFinished) stream.close();
    else stream.once('finish', closeStream);
  } else if (res !== null) {
    res.shouldKeepAlive = false;
    if (!res.headersSent) res.setHeader('Connection', 'close');
    // Not now: this may run inside node:http's parsing of a packet, whose rest would then be
    // pushed into the ended request, an error that destroys the socket before the response.
    process.nextTick(endMessage, req);
  }
  req.resume();
}

/** Ends an HTTP/1.x request whose body was given up on (see abandon). */
function endMessage(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.complete = true;
  // Flowing (abandon resumed it), an ended request emits `end` within two ticks, before the
  // socket can bring anything more.
  req.push(null);
}

/** Closes a stream whose response is sent, with NO_ERROR (close()'s default code). */
function closeStream(this: ServerHttp2Stream): void {
  this.close();
}
