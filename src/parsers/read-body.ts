// The one read pipeline every parser runs through, for its middleware and for its promise form
// (`read`). A parser contributes its charset policy and a `parse`; this file owns the rest, in
// body-parser's order:
//   already read? -> has a body? -> type matches? -> charset -> Content-Encoding ->
//   limit (Content-Length) -> read, counting decoded bytes against the limit -> verify ->
//   decode -> parse -> schema -> next() (or the promise resolved).
// Every error after the type matched is delivered once the rest of the body is drained (up to
// a bound), so the client can read its response; `next` is called exactly once, inside the
// async context the middleware was called in, and no listener, stream, timer or buffer is left
// behind. A promise the application returns (`verify`'s, a schema's) is waited for, bounded.
//
// The middleware (createReader) and `read` (readBody) make the cheap decisions that need no
// state, each its own way: the middleware passes over a request that is not its own (already
// read, no body, not its type), where `read`, asked for this body, refuses one it cannot read.
// A body that is read gets a BodyReader, one object per request whose methods are the steps in
// order, each short, with the state they share as named fields rather than variables captured
// by ten closures. The middleware is that reader with `next` as its end; `read`, the same
// reader with a promise's.

import { AsyncResource } from 'node:async_hooks';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { ServerHttp2Stream } from 'node:http2';
import type { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createError, errorKinds, HttpwareError, isHttpwareError, validStatus } from '../errors.js';
import { LOG_TEXTS, recordFailure, setLogText } from '../failures.js';
import { type CharsetPolicy, charsetExists, decode, stripBom } from './charset.js';
import { type Coding, codingOf } from './inflate.js';
import { type ContentType, parseContentType } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import { validationFailed } from './schema.js';
import type { ParserMiddleware, StandardSchemaV1 } from './types.js';

/** What a parser adds to the pipeline. */
export interface BodyFormat {
  /** Which charsets it decodes; null: it takes the bytes as they are (raw). */
  readonly charsets: CharsetPolicy;
  /** The decoded text (a Buffer for raw) -> `req.body`. Throw an error to refuse the body. */
  readonly parse: (body: string | Buffer, charset: string | null) => unknown;
}

type Next = (err?: unknown) => void;
/**
 * How a reading ends: with an error, or with the body. The middleware's is `next` (the body is
 * then in `req.body`, and `next` gets no argument); `read`'s settles its promise.
 */
type Done = (err?: unknown, body?: unknown) => void;
type BodyRequest = IncomingMessage & { body?: unknown; rawBody?: Buffer };
/** node:http2's compatibility request, as far as this file reads it. */
type Http2Request = IncomingMessage & { readonly stream: ServerHttp2Stream };

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
    (length !== undefined && !Number.isNaN(Number(length))) ||
    (req.httpVersionMajor === 2 && !(req as Http2Request).stream.endAfterHeaders)
  );
}

/** A parser's options, resolved, and its part of the pipeline. */
export interface Pipeline {
  readonly options: ResolvedOptions;
  readonly format: BodyFormat;
}

/**
 * A parser: called with options, its middleware; its `read(req, options)`, the same pipeline as
 * a promise. `prepare` resolves the options (a bad one throws its TypeError: at creation for
 * the middleware, as the rejection of `read`). `read` has no creation step, so its options are
 * resolved on every call: a few object reads and, for a `type`, a string split.
 */
export function definePipeline<Parser>(
  name: string,
  prepare: (options?: never) => Pipeline,
): Parser {
  const parser = (options?: never): ParserMiddleware => {
    const { options: resolved, format } = prepare(options);
    return createReader(resolved, format);
  };
  const read = (req: IncomingMessage, options?: never): Promise<unknown> => {
    let pipeline: Pipeline;
    let res: ServerResponse | null;
    try {
      if (typeof req?.on !== 'function' || typeof req.headers !== 'object') {
        throw new TypeError('read needs the request (an http.IncomingMessage)');
      }
      res = responseOf(req, options);
      pipeline = prepare(options);
    } catch (err) {
      return Promise.reject(err);
    }
    return readBody(req, res, pipeline.options, pipeline.format);
  };
  Object.defineProperty(parser, 'name', { value: name });
  return Object.assign(parser, { read }) as Parser;
}

/** The `res` option of `read`, or Express's `req.res`, or null. */
function responseOf(req: IncomingMessage, options: unknown): ServerResponse | null {
  const given = (options as { res?: unknown } | null | undefined)?.res;
  const res = given ?? (req as IncomingMessage & { res?: unknown }).res ?? null;
  if (res !== null && typeof (res as Partial<ServerResponse>).setHeader !== 'function') {
    throw new TypeError('option res must be the response (an http.ServerResponse)');
  }
  return res as ServerResponse | null;
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

  const legacyEmptyBody = options.legacyEmptyBody;

  return function httpwareBodyParser(req, res, next) {
    // The legacyEmptyBody option: body-parser 1.x's `req.body = req.body || {}` (for undefined
    // only), before every check that passes the request over; one comparison when it is off.
    if (legacyEmptyBody && (req as BodyRequest).body === undefined) (req as BodyRequest).body = {};
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
      // The application's function: what it throws is an error of the request, for `next`
      // (as Express would make of it), never an exception out of node:http's 'request' event.
      let wanted: unknown;
      try {
        wanted = options.typeFunction(req);
      } catch (thrown) {
        next(thrown);
        return;
      }
      if (!wanted) {
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
    // A response already sent (a timeout middleware answered, say) leaves nobody to read the
    // body for: node:http discards an unread one once the response has finished, so reading
    // it now would make `{}` of a body that never came. Checked here, past the requests that
    // have no body or are not this parser's, so they pay nothing for it.
    if (res.writableEnded) {
      next();
      return;
    }
    // From here the body is ours, and the rest is asynchronous.
    new BodyReader(request, res, inCallersContext(next), request, options, format).start(
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
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const refused = unreadable(req, res);
    if (refused !== null) {
      reject(refused);
      return;
    }
    readsStarted.add(req);
    let contentType: ContentType | undefined;
    let matched = true;
    if (hasBody(req)) {
      if (options.typeFunction !== null) {
        try {
          matched = Boolean(options.typeFunction(req));
        } catch (thrown) {
          reject(thrown);
          return;
        }
      } else {
        contentType = parseContentType(req.headers['content-type']);
        matched = options.matchesType(contentType.type);
      }
    }
    const done: Done = (err, body) => (err === undefined ? resolve(body) : reject(err));
    const reader = new BodyReader(req as BodyRequest, res, done, null, options, format);
    if (matched) reader.start(contentType);
    else {
      const mediaType = (contentType ?? parseContentType(req.headers['content-type'])).type;
      reader.refuse(createError('media.type.unsupported', { mediaType: mediaType ?? '' }));
    }
  });
}

/**
 * The requests a `read` was called for: a second `read` of one, concurrent or later, is refused
 * rather than sharing its body with the first (each would get part of it, or both all of it
 * through two 'data' listeners). Only `read` uses it; the middleware's own test is isFinished.
 */
const readsStarted = new WeakSet<IncomingMessage>();

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
    return abortedBefore(req);
  }
  if (
    req.readableDidRead ||
    req.readableEnded ||
    req.readableFlowing === true ||
    req.upgrade ||
    res?.writableEnded === true ||
    readsStarted.has(req)
  ) {
    return createError('stream.not.readable', {});
  }
  if (req.destroyed) {
    return req.complete ? createError('stream.not.readable', {}) : abortedBefore(req);
  }
  return null;
}

/** A request whose client left before `read` was called: nothing of its body was read. */
function abortedBefore(req: IncomingMessage): HttpwareError {
  const length = announcedLength(req);
  return createError('request.aborted', {
    code: 'ECONNABORTED',
    expected: length,
    length,
    received: 0,
  });
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

// Encoded bodies announced at most this long are collected whole and inflated in one call of
// zlib's synchronous API, which for a small body costs a fraction of a stream's setup and
// events; larger and chunked ones are streamed. The call is bounded twice: by this input size,
// and by SYNC_INFLATE_OUTPUT_BYTES (or the limit, if lower) of output, so the event loop is
// never held for more than about a millisecond, whatever the body inflates to.
const SYNC_INFLATE_INPUT_BYTES = 64 * 1024;
const SYNC_INFLATE_OUTPUT_BYTES = 256 * 1024;

/**
 * One request's body, read through the pipeline's steps in order, one method each:
 *   start: charset -> coding (inflate) -> limit -> stream checks, any refusal goes to fail;
 *   collect: chunks off the request (or its decompressor), counted against the limit;
 *   inflate: a small encoded body collected whole is decompressed in one call;
 *   finish: verify (awaited when it returns a promise) -> decode -> parse -> validate
 *     (awaited likewise) -> succeed: `req.body` and next(), or the promise resolved;
 *   fail: the error waits for drain, which reads off the rest of the body, then next(err).
 * `settled` makes sure `done` runs once; every listener is removed before either exit.
 */
class BodyReader {
  private settled = false;
  private charset: string | null = null;
  private coding: Coding | null = null;
  /** A small encoded body, collected whole and inflated at its end (see inflate). */
  private whole = false;
  private decompressor: Transform | null = null;
  private source: NodeJS.ReadableStream;
  /** The Content-Length of an identity body (encoded: it counts other bytes than the limit). */
  private length: number | null = null;
  /** Bytes counted against the limit: after inflation, before decoding. */
  private received = 0;
  /** Bytes of the request already taken off the socket (identity bodies), for drain's budget. */
  private consumed = 0;
  private chunks: Buffer[] = [];
  /**
   * A UTF-8 body in several chunks that nothing needs as bytes (no `verify`, no `rawBody`) is
   * decoded as it arrives, as raw-body does for body-parser: the chunks can then go as soon as
   * they are read, and a 1 MB body is never held as chunks, a joined Buffer and a string at
   * once. The decoder carries a character split between two chunks over to the next one.
   */
  private decodeAsRead = false;
  private decoder: StringDecoder | null = null;
  private decoded = '';

  /**
   * @param res null under `read` without a response: `verify` then gets undefined, and a body
   *   given up on cannot close its connection (see abandon).
   * @param target the request whose `body` the result goes to (the middleware's), or null (read).
   */
  constructor(
    private readonly req: BodyRequest,
    private readonly res: ServerResponse | null,
    private readonly done: Done,
    private readonly target: BodyRequest | null,
    private readonly options: ResolvedOptions,
    private readonly format: BodyFormat,
  ) {
    this.source = req;
  }

  /** Refuses the body before reading it (read's 415): the same delivery as any error. */
  refuse(err: HttpwareError): void {
    this.fail(err);
  }

  start(contentType: ContentType | undefined): void {
    const refused =
      this.selectCharset(contentType) ??
      this.selectCoding() ??
      this.checkLength() ??
      this.checkStream();
    if (refused === null) this.collect();
    else this.fail(refused);
  }

  private selectCharset(contentType: ContentType | undefined): HttpwareError | null {
    if (this.format.charsets === null) return null;
    contentType ??= parseContentType(this.req.headers['content-type']);
    // The Content-Type's charset is lower-cased; `defaultCharset` is used as given, as
    // body-parser does (`verify` sees it so, and a json parser refuses 'UTF-8' as a default).
    const charset = contentType.charset || this.options.defaultCharset;
    if (!this.format.charsets(charset)) return createError('charset.unsupported', { charset });
    if (!charsetExists(charset)) {
      return createError('charset.unsupported', { charset: charset.toLowerCase() });
    }
    this.charset = charset;
    this.decodeAsRead =
      charset === 'utf-8' && this.options.verify === null && !this.options.rawBody;
    return null;
  }

  private selectCoding(): HttpwareError | null {
    const header = this.req.headers['content-encoding'];
    if (!header) return null;
    const name = header.toLowerCase();
    if (name === 'identity') return null;
    if (!this.options.inflate) {
      // body-parser sets `encoding`; its README names the property `charset`: both are set.
      return createError(
        'encoding.unsupported',
        { encoding: name, charset: name },
        { message: 'content encoding unsupported' },
      );
    }
    this.coding = codingOf(name);
    if (this.coding === null) return createError('encoding.unsupported', { encoding: name });
    const declared = announcedLength(this.req);
    this.whole = declared !== null && declared <= SYNC_INFLATE_INPUT_BYTES;
    return null;
  }

  /** The limit's first check: an identity body announced over it is refused unread. */
  private checkLength(): HttpwareError | null {
    if (this.coding !== null) return null;
    this.length = announcedLength(this.req);
    const { length } = this;
    const limit = this.options.limit;
    if (length === null || length <= limit) return null;
    return createError('entity.too.large', { expected: length, length, limit });
  }

  private checkStream(): HttpwareError | null {
    // Bytes only: a decoder set on the request would hand over strings cut at any character.
    if (this.req.readableEncoding !== null) return createError('stream.encoding.set', {});
    // Only an identity body is refused so: body-parser reads an encoded one through its
    // decompressor (a fresh one is always readable), and so does this, even read whole.
    if (this.coding === null && this.req.readable === false) {
      return createError('stream.not.readable', {});
    }
    return null;
  }

  private collect(): void {
    const req = this.req;
    closing(req).on('close', this.onClose);
    req.on(abortEvent(req), this.onAborted);
    if (this.coding !== null && !this.whole) this.streamThrough(this.coding.stream(), req);
    else this.listen(req);
  }

  private listen(source: NodeJS.ReadableStream): void {
    this.source = source;
    source.on('data', this.onData);
    source.on('end', this.onEnd);
  }

  private streamThrough(decompressor: Transform, from: NodeJS.ReadableStream | Buffer): void {
    this.decompressor = decompressor;
    decompressor.on('error', this.onInflateError);
    this.listen(decompressor);
    if (Buffer.isBuffer(from)) decompressor.end(from);
    else from.pipe(decompressor);
  }

  private readonly onData = (chunk: Buffer): void => {
    // A body to inflate whole is bounded by its announced length, checked in selectCoding.
    if (this.whole) {
      this.chunks.push(chunk);
      return;
    }
    // The limit's second check, on bytes as they arrive (after inflation): a small compressed
    // body that inflates past the limit is stopped here, holding at most the limit plus one
    // chunk in memory.
    this.received += chunk.length;
    if (this.decompressor === null) this.consumed = this.received;
    const limit = this.options.limit;
    if (this.received > limit) {
      this.stop(createError('entity.too.large', { limit, received: this.received }));
    } else if (this.decoder !== null) this.decoded += this.decoder.write(chunk);
    else if (this.decodeAsRead && this.chunks.length === 1) {
      // The second chunk: from here on the body is decoded as it comes. A body in one chunk
      // (most small ones) is decoded once it ends, without a decoder.
      this.decoder = new StringDecoder('utf8');
      this.decoded = this.decoder.write(this.chunks[0] as Buffer) + this.decoder.write(chunk);
      this.chunks = [];
    } else this.chunks.push(chunk);
  };

  private readonly onEnd = (): void => {
    if (this.req.httpVersionMajor === 2 && wasReset((this.req as Http2Request).stream)) {
      this.onAborted();
      return;
    }
    const { length, received } = this;
    if (length !== null && received !== length) {
      this.stop(createError('request.size.invalid', { expected: length, length, received }));
      return;
    }
    const { chunks, decoder } = this;
    // The reader may live on while `verify` or a schema is waited for: it keeps none of the body.
    this.chunks = [];
    this.cleanup();
    if (this.decompressor !== null) {
      discard(this.decompressor, this.req);
      this.decompressor = null;
      this.req.resume();
    }
    if (decoder !== null) {
      const text = this.decoded + decoder.end();
      this.decoded = '';
      this.parse(stripBom(text));
      return;
    }
    // One chunk is the body as it is: no copy.
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    if (this.whole) this.inflate(body);
    else this.finish(body);
  };

  private readonly onAborted = (): void => {
    const { length, received } = this;
    this.stop(
      createError('request.aborted', { code: 'ECONNABORTED', expected: length, length, received }),
    );
  };

  private readonly onClose = (): void => {
    // An HTTP/1.x request (or its connection) closed before its body ended was cut short.
    // This also covers Node's `aborted` event, which is always followed by `close` (and by
    // `error` when the client left, both already listened to). An HTTP/2 request is
    // `complete` once aborted: there the `aborted` listener tells.
    if (!this.req.complete) this.onAborted();
  };

  private readonly onInflateError = (err: Error): void => {
    this.stop(createError('entity.inflate.failed', {}, { message: err.message, cause: err }));
  };

  /**
   * A small encoded body, decompressed in one call. Anything but a clean result (corrupt data,
   * or more output than the call may make) replays the same bytes through the stream, which
   * owns every error and the limit: the answers are exactly the streamed body's.
   */
  private inflate(compressed: Buffer): void {
    this.whole = false;
    const coding = this.coding as Coding;
    const maxOutputLength = Math.min(this.options.limit, SYNC_INFLATE_OUTPUT_BYTES);
    let body: Buffer;
    try {
      body = coding.sync(compressed, { maxOutputLength });
    } catch {
      this.chunks = [];
      this.streamThrough(coding.stream(), compressed);
      return;
    }
    this.received = body.length;
    this.finish(body);
  }

  private finish(body: Buffer): void {
    const { req, options } = this;
    if (options.rawBody) req.rawBody = body;
    if (options.verify !== null) {
      let result: unknown;
      let thenable: boolean;
      try {
        // Under `read` without a response, `res` is undefined (ReadVerifyFunction says so).
        result = options.verify(req, (this.res ?? undefined) as ServerResponse, body, this.charset);
        // A `then` getter that throws throws here: refused, as `await` would reject.
        thenable = isThenable(result);
      } catch (thrown) {
        this.fail(adopt(thrown, 'entity.verify.failed', body));
        return;
      }
      if (thenable) {
        const timeout = options.verifyTimeout;
        this.wait(
          result as PromiseLike<unknown>,
          timeout,
          () => createError('entity.verify.timeout', { timeout }),
          () => this.decode(body),
          (reason) => this.fail(adopt(reason, 'entity.verify.failed', body)),
        );
        return;
      }
    }
    this.decode(body);
  }

  private decode(body: Buffer): void {
    let text: string | Buffer = body;
    try {
      if (this.charset !== null) text = decode(body, this.charset);
    } catch (thrown) {
      this.fail(adopt(thrown, 'entity.parse.failed', text));
      return;
    }
    this.parse(text);
  }

  private parse(text: string | Buffer): void {
    let value: unknown;
    try {
      value = this.format.parse(text, this.charset);
    } catch (thrown) {
      this.fail(isHttpwareError(thrown) ? thrown : adopt(thrown, 'entity.parse.failed', text));
      return;
    }
    const schema = this.options.schema;
    if (schema === null) this.succeed(value);
    else this.validate(schema, value);
  }

  /**
   * The `schema` option (Standard Schema v1): the parsed body in, its output or its issues out,
   * at once or through a promise. A schema that throws (or whose promise rejects) instead of
   * returning issues is broken, not the body: a 500 the client is not shown.
   */
  private validate(schema: StandardSchemaV1.Props, input: unknown): void {
    let result: unknown;
    let thenable: boolean;
    try {
      result = schema.validate(input);
      // The result is the application's object: a `then` getter that throws is the schema's.
      thenable = isThenable(result);
    } catch (thrown) {
      this.fail(schemaThrew(thrown));
      return;
    }
    if (!thenable) {
      this.validated(result, input);
      return;
    }
    const timeout = this.options.schemaTimeout;
    this.wait(
      result as PromiseLike<unknown>,
      timeout,
      () => createError('entity.validation.timeout', { timeout }),
      (settled) => this.validated(settled, input),
      (reason) => this.fail(schemaThrew(reason)),
    );
  }

  /**
   * The schema's result, read once. Every read of it may run the application's code (getters
   * of `issues`, `value`, of each issue and path segment, a key's `toString`): what that throws
   * is a broken schema's 500, never an exception out of the request.
   */
  private validated(result: unknown, input: unknown): void {
    let failure: HttpwareError | undefined;
    let value: unknown;
    try {
      if (typeof result !== 'object' || result === null) {
        throw new TypeError('the schema returned no result');
      }
      const { issues } = result as { issues?: unknown };
      if (issues) failure = validationFailed(issues, input, this.options.validatorMessages);
      else value = (result as { value?: unknown }).value;
    } catch (thrown) {
      this.fail(schemaThrew(thrown));
      return;
    }
    if (failure === undefined) this.succeed(value);
    else this.fail(failure);
  }

  private succeed(body: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (this.target === null) {
      this.done(undefined, body);
      return;
    }
    this.target.body = body;
    this.done();
  }

  /**
   * Waits for a promise of the application's, at most `timeout` ms: one that never settles
   * would hold the request (and its socket) for ever. Whichever comes first wins; the other is
   * ignored, and the timer never outlives the wait (see BoundedWait).
   */
  private wait(
    promise: PromiseLike<unknown>,
    timeout: number,
    expired: () => HttpwareError,
    onValue: (value: unknown) => void,
    onReason: (reason: unknown) => void,
  ): void {
    new BoundedWait(timeout, () => this.fail(expired()), onValue, onReason).on(promise);
  }

  private cleanup(): void {
    const { req, source } = this;
    source.removeListener('data', this.onData);
    source.removeListener('end', this.onEnd);
    closing(req).removeListener('close', this.onClose);
    req.removeListener(abortEvent(req), this.onAborted);
    if (this.decompressor !== null) this.decompressor.removeListener('error', this.onInflateError);
  }

  private stop(err: unknown): void {
    this.cleanup();
    // What was read is not needed any more, even if drain keeps this reader a while.
    this.chunks = [];
    this.fail(err);
  }

  private fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    discard(this.decompressor, this.req);
    recordFailure(this.req, err); // for the logger's error.type (src/failures.ts)
    this.drain(() => this.done(err));
  }

  /**
   * Reads and throws away the rest of a request so its response can be read by the client and
   * the connection reused. A client that keeps sending past DRAIN_LIMIT_BYTES, or for longer
   * than DRAIN_LIMIT_MS, gets its answer anyway, and the connection is closed after it; so
   * does one that announced more than that in its Content-Length, without waiting for it.
   */
  private drain(callback: () => void): void {
    const { req, res } = this;
    if (isFinished(req)) {
      callback();
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (declared - this.consumed > DRAIN_LIMIT_BYTES) {
      abandon(req, res);
      callback();
      return;
    }
    let discarded = 0;
    const stopListening = () => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.removeListener('end', done);
      req.removeListener('close', done);
      req.removeListener('aborted', done);
      req.removeListener('error', done);
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
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('aborted', done);
    req.on('error', done);
    req.resume();
  }
}

type Outcome = (outcome: unknown) => void;

/**
 * One wait for a promise of the application's (`verify`'s, a schema's), bounded by a timer.
 * The reactions given to that promise stay attached to it for as long as the application
 * keeps it, which after a timeout can be for ever: they hold only this object, whose
 * continuations (closures over the body or the parsed value, and the reader) are dropped as
 * soon as the wait ends, so a request that timed out leaves nothing of its body behind.
 */
class BoundedWait {
  private onValue: Outcome | null;
  private onReason: Outcome | null;
  private onTimeout: (() => void) | null;
  private readonly timer: NodeJS.Timeout;

  constructor(timeout: number, onTimeout: () => void, onValue: Outcome, onReason: Outcome) {
    this.onValue = onValue;
    this.onReason = onReason;
    this.onTimeout = onTimeout;
    this.timer = setTimeout(this.expire, timeout);
  }

  on(promise: PromiseLike<unknown>): void {
    try {
      promise.then(this.value, this.reason);
    } catch (thrown) {
      // A thenable whose `then` throws: rejected, as `await` would make it.
      this.reason(thrown);
    }
  }

  private readonly value = (value: unknown): void => {
    const then = this.onValue;
    if (this.end()) (then as Outcome)(value);
  };

  private readonly reason = (reason: unknown): void => {
    const then = this.onReason;
    if (this.end()) (then as Outcome)(reason);
  };

  private readonly expire = (): void => {
    const then = this.onTimeout;
    if (this.end()) (then as () => void)();
  };

  /** Whether the wait was still on; it is over now, holding no continuation. */
  private end(): boolean {
    if (this.onTimeout === null) return false;
    clearTimeout(this.timer);
    this.onValue = null;
    this.onReason = null;
    this.onTimeout = null;
    return true;
  }
}

/**
 * The event that tells a body was cut short. On HTTP/1.x, `error` (the client left; a request
 * the application destroys has only `close`, see onClose). node:http2's compatibility request
 * never emits `error`, and when the client resets the stream (RST_STREAM) it emits `aborted`,
 * then ends as if the body were whole: `end` (after `close`, or before it for a reset with
 * NO_ERROR), and `complete` is already true by `close`. Only `aborted` comes first every time.
 */
function abortEvent(req: IncomingMessage): 'error' | 'aborted' {
  return req.httpVersionMajor === 2 ? 'aborted' : 'error';
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
 * What closes when an HTTP/1.x body can no longer come: the connection. node:http aborts
 * (destroys) a request whose client left only while its response is pending; once the response
 * has finished (a timeout middleware answered while the body was still coming), a client that
 * leaves closes the socket and nothing else, and a reader listening to the request would wait
 * for ever. Every other end of a request's body closes its socket too: node:http destroys the
 * request after the socket closed, and a request destroyed by the application (cut short)
 * destroys its socket. On HTTP/2 the request's own `close` tells (with `aborted`, see
 * abortEvent): its session may carry other streams on.
 */
function closing(req: IncomingMessage): NodeJS.EventEmitter {
  return req.httpVersionMajor === 2 ? req : (req.socket ?? req);
}

/** The Content-Length as a number, or null when there is none (or it is not a number). */
function announcedLength(req: IncomingMessage): number | null {
  const declared = req.headers['content-length'];
  return declared !== undefined && !Number.isNaN(Number(declared))
    ? Number.parseInt(declared, 10)
    : null;
}

/**
 * An error thrown by application code (`verify`, a `reviver`) as body-parser reports it (through
 * `http-errors`): the thrown error's own `status` (or `statusCode`) is kept when it is an HTTP
 * status, and becomes 500 when it is something else; an error with its own truthy `type` is the
 * application's own kind and passes through with `status`, `statusCode`, `expose` and `body`
 * added; any other is wrapped in an HttpwareError of the given kind, the thrown value as its
 * `cause`. A thrown string is the message; another thrown object gets the status's own text.
 * Whichever it is, a log line says LOG_TEXTS[type] of it, never the message: a verify may well
 * throw one that quotes the body it refused.
 */
function adopt(
  thrown: unknown,
  type: 'entity.verify.failed' | 'entity.parse.failed',
  body: Buffer | string,
): unknown {
  let err: unknown;
  try {
    err = adopted(thrown, type, body);
  } catch {
    // A thrown error whose `status`, `type` or `message` getter throws in turn: wrapped whole.
    err = new HttpwareError(type, detailsOf(type, body), {
      message: STATUS_CODES[errorKinds[type].status] as string,
      cause: thrown,
    });
  }
  setLogText(err as object, LOG_TEXTS[type]);
  return err;
}

function detailsOf(type: keyof typeof LOG_TEXTS, body: Buffer | string) {
  return type === 'entity.parse.failed' ? { body: String(body) } : { body };
}

function adopted(
  thrown: unknown,
  type: 'entity.verify.failed' | 'entity.parse.failed',
  body: Buffer | string,
): object {
  const fallback = errorKinds[type].status;
  const details = detailsOf(type, body);
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

/** Whether the application returned a promise (or any thenable) rather than a value. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * A schema that threw, or whose promise rejected, instead of returning issues. What it threw
 * stays in `cause` only: a transform's `JSON.parse(s)` or `BigInt(s)` throws a message quoting
 * the value, which neither the message nor a log line may carry.
 */
function schemaThrew(thrown: unknown): HttpwareError {
  return createError('entity.validation.threw', {}, { cause: thrown });
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
