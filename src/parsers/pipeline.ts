// The steps every body goes through once its bytes come, whichever door it came in by: a Node
// request (`IncomingMessage`, read-body.ts) or a Web `Request` (web-body.ts). They share one
// pipeline so a body gets the same answer on both, error for error:
//   charset -> Content-Encoding -> limit (Content-Length) -> [the door collects the bytes,
//   within bodyTimeout] -> counted against the limit after inflation, kept compactly or
//   decoded as they come (gather.ts) -> verify -> decode -> parse -> schema.
// BodyReader owns those steps; a door is a subclass that knows where the headers are, how the
// bytes arrive (Node stream events, or a WHATWG stream's reader), how a body cut short shows,
// and what to do with the rest of a body after an error (drain it, or stop it). Everything that
// decides what a body means (limits, codings, charsets, `adopt`, the bounded waits for the
// application's promises) lives here once.

import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Transform } from 'node:stream';
import { createError, errorKinds, HttpwareError, isHttpwareError, validStatus } from '../errors.js';
import { LOG_TEXTS, recordFailure, setLogText } from '../failures.js';
import { isThenable } from '../thenable.js';
import { type CharsetPolicy, charsetExists, decode, streamDecoder, stripBom } from './charset.js';
import { type BoundedRead, type TimeBound, timeBound } from './deadlines.js';
import { Decoding, Gathered, isCompact } from './gather.js';
import { type Coding, codingOf } from './inflate.js';
import { type ContentType, parseContentType } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import { validationFailed } from './schema.js';
import type { StandardSchemaV1 } from './types.js';

/** What a parser adds to the pipeline. */
export interface BodyFormat {
  /** Which charsets it decodes; null: it takes the bytes as they are (raw). */
  readonly charsets: CharsetPolicy;
  /**
   * The decoded text (a Buffer for raw) -> `req.body`. Throw an error to refuse the body.
   * `bytes`: the bytes the text was decoded from in one piece (none for a body decoded as it came).
   */
  readonly parse: (body: string | Buffer, charset: string | null, bytes?: Buffer) => unknown;
}

/**
 * How a reading ends: with an error, or with the body. The middleware's is `next` (the body is
 * then in `req.body`, and `next` gets no argument); `read`'s settles its promise.
 */
export type Done = (err?: unknown, body?: unknown) => void;
/** Where a reading may put what it read: `req.body`, and `req.rawBody` when asked. */
export type BodyTarget = { body?: unknown; rawBody?: Buffer };

/** Most bytes discarded after an error before the rest of the body is given up on instead. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** Longest wait for the rest of a body after an error before giving up on it. */
export const DRAIN_LIMIT_MS = 1000;

/** A parser's options, resolved, and its part of the pipeline. */
export interface Pipeline {
  readonly options: ResolvedOptions;
  readonly format: BodyFormat;
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
 *   fail: the error waits for the door's drain, which deals with the rest of the body, then
 *     next(err) or the promise rejected.
 * `settled` makes sure `done` runs once; every listener is removed before either exit.
 * A door supplies the headers, the source checks, how bytes arrive (collect, pipeInto), how a
 * body cut short shows (cutShort), cleanup, and drain.
 */
export abstract class BodyReader<Request extends object = object> implements BoundedRead {
  protected settled = false;
  protected charset: string | null = null;
  protected coding: Coding | null = null;
  /** A small encoded body, collected whole and inflated at its end (see inflate). */
  protected whole = false;
  protected decompressor: Transform | null = null;
  /** The decompressor's `error` listener, made with it: most bodies have neither. */
  private onInflateError: ((err: Error) => void) | null = null;
  /** The Node stream whose `data` and `end` feed onData and onEnd: the request, or a decompressor. */
  protected source: NodeJS.ReadableStream | null = null;
  /** The Content-Length of an identity body (encoded: it counts other bytes than the limit). */
  protected length: number | null = null;
  /** Bytes counted against the limit: after inflation, before decoding. */
  protected received = 0;
  /** Bytes of the request already taken off the socket (identity bodies), for drain's budget. */
  protected consumed = 0;
  /** A whole body's announced length, when it is collected whole to be inflated in one call. */
  private wholeLength = 0;
  /** The chunks kept as they came: the first, then large ones (see gather.ts). */
  protected chunks: Buffer[] = [];
  /** The body's bytes once a chunk that cannot be kept as it came arrived (see gather.ts). */
  private gathered: Gathered | null = null;
  /**
   * A body in several chunks that nothing needs as bytes (no `verify`, no `rawBody`) is
   * decoded as it arrives, whatever its charset, as raw-body does for body-parser: the chunks
   * can then go as soon as they are read, and a 1 MB body is never held as chunks, a joined
   * Buffer and a string at once. The decoder carries a character split between two chunks
   * over to the next one.
   */
  private decodeAsRead = false;
  private decoding: Decoding | null = null;
  /** The time bound on collecting the body (see bodyTimeout), while it runs (deadlines.ts). */
  private bound: TimeBound | null = null;
  /** When the body has taken too long (its bound's clock). */
  deadline = 0;
  /** The rest of the body is given up on rather than drained (a body that timed out). */
  protected abandonRest = false;

  /**
   * @param req the request `verify` is given, and whose failure is recorded for the log line.
   * @param res null under `read` without a response (always, for a Web Request): `verify` then
   *   gets undefined, and a Node body given up on cannot close its connection (see abandon).
   * @param target the request whose `body` the result goes to (the middleware's), or null (read).
   */
  constructor(
    protected readonly req: Request,
    protected readonly res: ServerResponse | null,
    protected readonly done: Done,
    protected readonly target: BodyTarget | null,
    protected readonly options: ResolvedOptions,
    protected readonly format: BodyFormat,
  ) {}

  /** The Content-Type, Content-Encoding header, as the door finds them (undefined: none). */
  protected abstract contentTypeHeader(): string | undefined;
  protected abstract encodingHeader(): string | undefined;
  /** The Content-Length as a number, or null when there is none (or it is not a number). */
  protected abstract announced(): number | null;
  /** Whether the door's source can be read as bytes at all (a refusal, or null). */
  protected abstract checkSource(): HttpwareError | null;
  /** Starts taking bytes off the source: to onData and onEnd, or through pipeInto. */
  protected abstract collect(): void;
  /** Feeds the source's bytes into a decompressor, and ends it at the end of the body. */
  protected abstract pipeInto(decompressor: Transform): void;
  /** Whether a body that ended was in fact cut short by its client. */
  protected abstract cutShort(): boolean;
  /** Stops listening to the source (and to the decompressor's errors); `ended`: it ended. */
  protected abstract cleanup(ended?: boolean): void;
  /** Stops and drops the decompressor once it is not needed (`ended`: the body was whole). */
  protected abstract dropDecompressor(ended: boolean): void;
  /** Deals with the rest of a body after an error, then calls back (see each door). */
  protected abstract drain(callback: () => void): void;
  /** The longest time the body may take to arrive, in ms (0: no bound of the parser's). */
  protected abstract bodyTimeout(): number;

  /**
   * Whether a body whose length is announced is kept as bytes and decoded once it ended rather
   * than decoded as it comes (see decodeAsRead): the Web door's choice (web-body.ts).
   */
  protected decodesWhole(): boolean {
    return false;
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
      this.checkSource();
    if (refused !== null) {
      this.fail(refused);
      return;
    }
    const timeout = this.bodyTimeout();
    if (timeout > 0) {
      this.bound = timeBound(timeout);
      this.bound.watch(this);
    }
    this.collect();
  }

  /**
   * The body did not arrive in time: a client trickling it a byte at a time would otherwise
   * hold the reading (and its connection) for as long as it likes. Its rest is given up on,
   * not drained: it would come as slowly.
   */
  expire(): void {
    this.bound = null;
    this.abandonRest = true;
    const timeout = this.bodyTimeout();
    this.stop(createError('request.timeout', { timeout, received: this.received }));
  }

  /** The body is whole, or the reading stopped: the time bound is over. */
  private disarm(): void {
    if (this.bound === null) return;
    this.bound.unwatch(this);
    this.bound = null;
  }

  private selectCharset(contentType: ContentType | undefined): HttpwareError | null {
    if (this.format.charsets === null) return null;
    contentType ??= parseContentType(this.contentTypeHeader());
    // The Content-Type's charset is lower-cased; `defaultCharset` is used as given, as
    // body-parser does (`verify` sees it so, and a json parser refuses 'UTF-8' as a default).
    const charset = contentType.charset || this.options.defaultCharset;
    if (!this.format.charsets(charset)) return createError('charset.unsupported', { charset });
    if (!charsetExists(charset)) {
      return createError('charset.unsupported', { charset: charset.toLowerCase() });
    }
    this.charset = charset;
    this.decodeAsRead = this.options.verify === null && !this.options.rawBody;
    return null;
  }

  private selectCoding(): HttpwareError | null {
    const header = this.encodingHeader();
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
    const declared = this.announced();
    this.whole = declared !== null && declared <= SYNC_INFLATE_INPUT_BYTES;
    if (this.whole) this.wholeLength = declared as number;
    return null;
  }

  /** The limit's first check: an identity body announced over it is refused unread. */
  private checkLength(): HttpwareError | null {
    if (this.coding !== null) return null;
    this.length = this.announced();
    const { length } = this;
    const limit = this.options.limit;
    if (length === null) return null;
    if (length <= limit) {
      if (this.decodesWhole()) this.decodeAsRead = false;
      return null;
    }
    return createError('entity.too.large', { expected: length, length, limit });
  }

  protected listen(source: NodeJS.ReadableStream): void {
    this.source = source;
    source.on('data', this.onData);
    source.on('end', this.onEnd);
  }

  /** Inflates the source's bytes (null) or a body collected whole, as a stream. */
  protected streamThrough(decompressor: Transform, from: Buffer | null): void {
    this.decompressor = decompressor;
    this.onInflateError = (err) =>
      this.stop(createError('entity.inflate.failed', {}, { message: err.message, cause: err }));
    decompressor.on('error', this.onInflateError);
    this.listen(decompressor);
    if (from === null) this.pipeInto(decompressor);
    else decompressor.end(from);
  }

  protected readonly onData = (chunk: Buffer): void => {
    // A body to inflate whole is bounded by its announced length, checked in selectCoding.
    if (this.whole) {
      this.keep(chunk);
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
    } else if (this.decoding !== null) this.decoding.write(chunk);
    else if (this.decodeAsRead && this.chunks.length === 1) {
      // The second chunk: from here on the body is decoded as it comes. A body in one chunk
      // (most small ones) is decoded once it ends, without a decoder.
      this.decoding = new Decoding(streamDecoder(this.charset as string), limit);
      this.decoding.write(this.chunks[0] as Buffer);
      this.decoding.write(chunk);
      this.chunks = [];
    } else this.keep(chunk);
  };

  /**
   * Holds a chunk of a body needed as bytes: the first as it came (most bodies are one chunk,
   * used without a copy), a large one likewise until a small one came, and from the first
   * small one on, every byte copied into one buffer (see gather.ts), sized from the announced
   * length when there is one (the limit's first check bounded it), else grown by doubling up
   * to the limit (or, for a body collected whole to inflate, its announced length).
   */
  private keep(chunk: Buffer): void {
    const { gathered, chunks } = this;
    if (gathered !== null) gathered.append(chunk);
    else if (chunks.length === 0 || isCompact(chunk)) chunks.push(chunk);
    else {
      const expected = this.whole ? this.wholeLength : this.length;
      const into = new Gathered(expected, expected ?? this.options.limit);
      for (const kept of chunks) into.append(kept);
      into.append(chunk);
      this.chunks = [];
      this.gathered = into;
    }
  }

  protected readonly onEnd = (): void => {
    if (this.cutShort()) {
      this.aborted();
      return;
    }
    const { length, received } = this;
    if (length !== null && received !== length) {
      this.stop(createError('request.size.invalid', { expected: length, length, received }));
      return;
    }
    const { chunks, gathered, decoding } = this;
    this.disarm();
    // The reader may live on while `verify` or a schema is waited for: it keeps none of the body.
    this.forget();
    this.cleanup(true);
    if (this.decompressor !== null) {
      this.dropDecompressor(true);
      this.decompressor = null;
    }
    if (decoding !== null) {
      const text = decoding.end();
      // iconv-lite drops the BOM of the charsets that have one; StringDecoder does not.
      this.parse(this.charset === 'utf-8' ? stripBom(text) : text);
      return;
    }
    // One chunk is the body as it is: no copy.
    const body =
      gathered !== null
        ? gathered.bytes()
        : chunks.length === 1
          ? (chunks[0] as Buffer)
          : Buffer.concat(chunks);
    if (this.whole) this.inflate(body);
    else this.finish(body);
  };

  /** Drops what was read of the body. */
  private forget(): void {
    this.chunks = [];
    this.gathered = null;
    this.decoding = null;
  }

  /** The body was cut short by its client. */
  protected aborted(): void {
    const { length, received } = this;
    this.stop(
      createError('request.aborted', { code: 'ECONNABORTED', expected: length, length, received }),
    );
  }

  /** Stops listening to the decompressor's errors, if there is one (each door's cleanup). */
  protected unwatchDecompressor(): void {
    const { decompressor, onInflateError } = this;
    if (decompressor !== null && onInflateError !== null) {
      decompressor.removeListener('error', onInflateError);
    }
  }

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
      this.streamThrough(coding.stream(), compressed);
      return;
    }
    this.received = body.length;
    this.finish(body);
  }

  private finish(body: Buffer): void {
    const { req, options } = this;
    if (options.rawBody) (req as BodyTarget).rawBody = body;
    if (options.verify !== null) {
      let result: unknown;
      let thenable: boolean;
      try {
        // Under `read` without a response, `res` is undefined (ReadVerifyFunction says so).
        result = options.verify(
          req as unknown as IncomingMessage,
          (this.res ?? undefined) as ServerResponse,
          body,
          this.charset,
        );
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
    this.parse(text, body);
  }

  private parse(text: string | Buffer, bytes?: Buffer): void {
    let value: unknown;
    try {
      value = this.format.parse(text, this.charset, bytes);
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

  protected stop(err: unknown): void {
    this.disarm();
    this.cleanup();
    // What was read is not needed any more, even if drain keeps this reader a while.
    this.forget();
    this.fail(err);
  }

  protected fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (this.decompressor !== null) this.dropDecompressor(false);
    recordFailure(this.req, err); // for the logger's error.type (src/failures.ts)
    this.drain(() => this.done(err));
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

/**
 * A schema that threw, or whose promise rejected, instead of returning issues. What it threw
 * stays in `cause` only: a transform's `JSON.parse(s)` or `BigInt(s)` throws a message quoting
 * the value, which neither the message nor a log line may carry.
 */
function schemaThrew(thrown: unknown): HttpwareError {
  return createError('entity.validation.threw', {}, { cause: thrown });
}

/** Stops and drops a decompression stream; a late zlib error then has a listener to land on. */
export function discard(decompressor: Transform): void {
  decompressor.on('error', ignore);
  decompressor.destroy();
}

export function ignore(): void {}
