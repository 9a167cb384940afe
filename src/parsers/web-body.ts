// The Web door: a parser's `read` given a Web `Request` (undici's, Bun's, Deno's, workerd's, or
// any object with `headers.get`, `body` and `bodyUsed`). The body goes through the same pipeline
// as a Node request's (pipeline.ts), so it gets the same answers and the same errors; only
// where the bytes come from differs: a WHATWG ReadableStream's reader instead of stream events.
//
// What a Web Request changes:
// - a Request has a body unless `body` is null, which reads as an empty body (a Node request
//   without Content-Length or Transfer-Encoding likewise), its type unchecked;
// - the runtime may have read nothing yet, so the limit still holds twice: against the
//   Content-Length before a byte is read, then on every chunk (inflated bytes when encoded);
// - a client that leaves mid-body makes `read()` reject, or aborts `request.signal`;
// - a runtime may never end a body trickled a byte at a time (Deno does not): the reading is
//   bounded in time (the `bodyTimeout` option, WEB_BODY_TIMEOUT_MS unless set), a 408;
// - after an error the rest of the body is read off and dropped, within the same bounds as on
//   Node (DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS), so a runtime that answers over the same
//   connection can deliver the response; past either, or at once when the announced rest is
//   larger, the error is delivered, nothing more is read, and the reader is cancelled
//   DRAIN_LIMIT_MS later. Cancelling a body made by Node's `Readable.toWeb` destroys the
//   request, and node:http its socket: the answer must have gone out first (see discardRest).
//
// Cancelling is never done in the tick of a `read()` either. On Node 20
// (and later, nodejs/node#64529), a body made by `Readable.toWeb` (srvx's and @hono/node-server's
// adapters) resumes its Node stream in a `nextTick` when a read asks for more; cancelled before
// that tick runs, the stream still emits the chunks it buffered, and the adapter's `enqueue` on
// the closed controller throws ERR_INVALID_STATE from inside a stream event: an uncaught
// exception that ends the process. Once a macrotask has passed with no read asked for, no resume
// is pending (the stream is paused with a full queue, or flows with nothing buffered), and
// cancelling destroys it quietly.

import type { Transform } from 'node:stream';
import { createError, type HttpwareError } from '../errors.js';
import { contentLengthOf } from '../http-facts.js';
import { requestSignal } from '../request-signal.js';
import { ON_BUN } from '../runtime.js';
import { Blocks, STAGE_BYTES } from './gather.js';
import { type HeldRequest, heldWhole } from './held-body.js';
import type { Coding } from './inflate.js';
import {
  BodyReader,
  type Done,
  DRAIN_LIMIT_BYTES,
  DRAIN_LIMIT_MS,
  discard,
  ignore,
} from './pipeline.js';
import {
  abortedBeforeRead,
  claimBody,
  readStarted,
  typeMatches,
  unsupportedType,
  WEB_BODY_TIMEOUT_MS,
  type WebPipeline,
} from './prologue.js';
import type { WebRequest } from './types.js';

type Reader = ReturnType<NonNullable<WebRequest['body']>['getReader']>;

export { WEB_BODY_TIMEOUT_MS } from './prologue.js';

/** Whether `read` was given a Web Request rather than a Node one (whose headers are an object). */
export function isWebRequest(value: unknown): value is WebRequest {
  const headers = (value as { headers?: { get?: unknown } } | null | undefined)?.headers;
  return typeof headers?.get === 'function' && 'body' in (value as object);
}

/**
 * `read` for a Web Request: refused at once when its body cannot be read (used, locked, read
 * before, or its client gone); otherwise its type is matched (a body of another type, or of
 * none, is a 415 once the rest is drained) and the body read through the pipeline.
 */
export function readWebBody(request: WebRequest, pipeline: WebPipeline): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // A body held whole in memory is taken without its stream (held-body.ts): its `body` is
    // then not read, which would make the stream.
    const held = heldWhole(request);
    // Each read of `body` or `signal` is a getter call into the runtime (Bun makes either on
    // first use): both are read once.
    const body = held ? null : request.body;
    const signal = requestSignal(request);
    const refused = unreadable(request, body, signal);
    if (refused !== null) {
      reject(refused);
      return;
    }
    // A body is claimed by its lock, or for a held one by the runtime's own read: the reader
    // takes it before `read` returns, whatever the outcome (the body, or its drain after an
    // error), and a second `read` finds it locked or used. Only a Request without a body is
    // marked (a WeakSet add: 0.4 µs on Deno).
    if (body === null && !held) claimBody(request);
    const header = request.headers.get('content-type');
    const contentType = pipeline.types.of(header);
    const matched = typeMatches(pipeline.types, request, held || body !== null, reject);
    if (matched === null) return;
    const done: Done = (err, body) => (err === undefined ? resolve(body) : reject(err));
    const { options, format } = pipeline;
    const reader = new WebBodyReader(request, null, done, null, options, format);
    reader.body = body;
    reader.held = held;
    reader.signal = signal;
    reader.contentType = header;
    if (matched) reader.start(contentType);
    else reader.refuse(unsupportedType(contentType));
  });
}

/**
 * Whether a read listens to the signal while the body comes. Not on Bun: Bun.serve errors the
 * body of a client that leaves, which the reader sees (test/web/suite.ts runs there), and
 * adding and removing the listener cost 0.6 to 0.9 µs a read, a tenth of reading a 100-byte
 * body there. A signal already aborted is still refused on Bun; one that aborts mid-body on a
 * Request the application made is seen when its body errors, or at `bodyTimeout`.
 */
const LISTENS_TO_SIGNAL = !ON_BUN;

function unreadable(
  request: WebRequest,
  body: WebRequest['body'],
  signal: WebRequest['signal'],
): HttpwareError | null {
  if (request.bodyUsed || body?.locked === true || readStarted(request)) {
    return createError('stream.not.readable', {});
  }
  if (signal?.aborted === true) {
    return abortedBeforeRead(contentLengthOf(request.headers.get('content-length')));
  }
  return null;
}

/**
 * One Web Request's body through the pipeline: its reader's chunks go to onData (or through a
 * decompressor), its end to onEnd; a rejected read or an aborted signal is the client leaving.
 */
class WebBodyReader extends BodyReader<WebRequest> {
  private reader: Reader | null = null;
  /** Whether the pump still hands chunks over (false once cleaned up). */
  private listening = false;
  /** The reader gave its last chunk. */
  private ended = false;
  /** The client left: there is nothing to drain. */
  private gone = false;
  /** Bytes taken off the body as it came (before inflation), for drain's budget. */
  private taken = 0;
  /** The Content-Length, if any: the most bytes the body may bring (see pump). */
  private declared: number | null = null;
  /** The request's body stream, read once (null: none, or not read yet when `held`). */
  body: WebRequest['body'] = null;
  /** The body is held whole in memory and its stream not made (held-body.ts). */
  held = false;
  /** The request's abort signal (see requestSignal), read once. */
  signal: WebRequest['signal'] = undefined;
  /** The Content-Type header, read once. */
  contentType: string | null = null;

  protected contentTypeHeader(): string | undefined {
    return this.contentType ?? undefined;
  }

  protected encodingHeader(): string | undefined {
    return this.req.headers.get('content-encoding') ?? undefined;
  }

  protected announced(): number | null {
    return contentLengthOf(this.req.headers.get('content-length'));
  }

  protected checkSource(): HttpwareError | null {
    return null;
  }

  /**
   * A body of announced length (within the limit) is held as bytes, in one buffer of that
   * length at most when its chunks are small (see keep), and decoded once it ended, where a
   * Node request's is decoded chunk by chunk. Its bytes are bounded by the announced length
   * (twice that for large chunks kept as they came: gather.ts), as a text decoded in pieces is
   * by its pieces and their join; read so, it is decoded in one call of the runtime's fastest decoder
   * (Deno's TextDecoder, charset.ts) rather than its `string_decoder` polyfill, and on Bun its
   * prototype-key check searches the bytes (json.ts): a 1 MB body in two chunks, as Bun hands
   * over a Request's, reads 0.3 to 0.4 ms sooner there.
   */
  protected override decodesWhole(): boolean {
    return true;
  }

  protected bodyTimeout(): number {
    return this.options.bodyTimeout ?? WEB_BODY_TIMEOUT_MS;
  }

  protected collect(): void {
    // An identity body's length was read by the limit's first check.
    this.declared = this.coding === null ? this.length : this.announced();
    this.listening = true;
    if (LISTENS_TO_SIGNAL) this.signal?.addEventListener('abort', this.onSignal);
    const streamed = this.coding !== null && !this.whole;
    if (this.held && !streamed) {
      void this.takeHeld();
      return;
    }
    this.lock();
    if (streamed) this.streamThrough((this.coding as Coding).stream(), null);
    else void this.pump(null);
  }

  protected pipeInto(decompressor: Transform): void {
    void this.pump(decompressor);
  }

  protected cutShort(): boolean {
    return false;
  }

  protected cleanup(): void {
    this.listening = false;
    if (LISTENS_TO_SIGNAL) this.signal?.removeEventListener('abort', this.onSignal);
    const { source } = this;
    if (source !== null) {
      source.removeListener('data', this.onData);
      source.removeListener('end', this.onEnd);
    }
    this.unwatchDecompressor();
  }

  protected dropDecompressor(): void {
    discard(this.decompressor as Transform);
  }

  /** The body's reader, taken once; null when the Request has no body. */
  private lock(): Reader | null {
    if (this.held) {
      // A held body read as a stream after all (to inflate it as one, or to drain it).
      this.held = false;
      this.body = this.req.body;
    }
    if (this.reader === null && this.body !== null && !this.body.locked) {
      this.reader = this.body.getReader();
    }
    return this.reader;
  }

  /**
   * Hands the body's chunks to onData, or writes them into a decompressor, waiting for it to
   * take each (its `drain`) so no more than a chunk waits in memory. Stops as soon as the
   * pipeline stopped listening: the rest is drain's.
   */
  private async pump(into: Transform | null): Promise<void> {
    const reader = this.reader;
    const blocks = into === null ? null : new Blocks(STAGE_BYTES, (bytes) => into.write(bytes));
    try {
      while (reader !== null) {
        const { done, value } = await reader.read();
        if (!this.listening) return;
        if (done) break;
        const chunk = bytesOf(value);
        if (chunk === null) {
          this.stop(createError('stream.not.readable', {}));
          return;
        }
        if (!this.counted(chunk)) return;
        if (into === null) this.onData(chunk);
        else {
          // Small chunks (a view of a larger buffer, on Deno) are copied together into blocks:
          // a decompressor's queue may hold thousands of chunks before it says to wait, and
          // zlib costs a call per write (see gather.ts).
          (blocks as Blocks).write(chunk);
          if (into.writableNeedDrain) await writable(into);
        }
        if (!this.listening) return;
      }
    } catch {
      if (this.listening) this.clientLeft();
      return;
    }
    this.ended = true;
    if (into === null) this.onEnd();
    else {
      blocks?.flush();
      into.end();
    }
  }

  /**
   * A body held whole (held-body.ts), taken by the runtime's own read: its bytes go through
   * the pipeline as the one chunk its stream would have given. Nothing of it is left to drain.
   */
  private async takeHeld(): Promise<void> {
    this.held = false;
    let value: unknown;
    try {
      value = await (this.req as unknown as HeldRequest).bytes();
    } catch {
      if (this.listening) this.clientLeft();
      return;
    }
    this.ended = true;
    if (!this.listening) return;
    const chunk = bytesOf(value);
    if (chunk === null) {
      this.stop(createError('stream.not.readable', {}));
      return;
    }
    // A stream gives no empty chunk.
    if (chunk.length > 0) {
      if (!this.counted(chunk)) return;
      this.onData(chunk);
    }
    if (this.listening) this.onEnd();
  }

  /**
   * Counts a chunk taken off the body: false, the reading stopped, when it brings the body past
   * its Content-Length (see longerThanAnnounced).
   */
  private counted(chunk: Buffer): boolean {
    this.taken += chunk.length;
    if (this.declared === null || this.taken <= this.declared) return true;
    this.stop(this.longerThanAnnounced());
    return false;
  }

  /**
   * node:http never hands over more than a Content-Length announced; a Web body may (a Request
   * made in the application, a runtime that does not check), and an encoded body announced
   * small is collected whole before the limit counts it: it is stopped at the first byte past
   * its announced length.
   */
  private longerThanAnnounced(): HttpwareError {
    const length = this.declared as number;
    return createError('request.size.invalid', { expected: length, length, received: this.taken });
  }

  private readonly onSignal = (): void => {
    if (this.listening) this.clientLeft();
  };

  private clientLeft(): void {
    this.gone = true;
    this.aborted();
  }

  /**
   * After an error: nothing to do for a body that ended, or whose client left (the reader is
   * then let go). Otherwise the rest is read off and dropped; the error is delivered once the
   * body ended, or at once when the rest is announced larger than DRAIN_LIMIT_BYTES or the body
   * timed out, or once DRAIN_LIMIT_BYTES or DRAIN_LIMIT_MS are spent (see discardRest).
   */
  protected drain(callback: () => void): void {
    if (this.ended || (this.body === null && !this.held)) {
      callback();
      return;
    }
    const reader = this.lock();
    if (reader === null || this.gone) {
      if (reader !== null) cancelLater(reader);
      callback();
      return;
    }
    const declared = this.coding === null ? this.announced() : null;
    const overBudget =
      this.abandonRest || (declared !== null && declared - this.taken > DRAIN_LIMIT_BYTES);
    discardRest(reader, overBudget, callback);
  }
}

/**
 * Reads off what is left of a body and drops it, a chunk at a time, until it ends, or until
 * DRAIN_LIMIT_BYTES are read or DRAIN_LIMIT_MS have passed (at once when `overBudget`): then
 * `settled` is called and nothing more is read (a read in flight is let go). The reader is
 * cancelled DRAIN_LIMIT_MS after the reading stopped, not sooner, as on Node a body made by
 * `Readable.toWeb` (srvx, @hono/node-server) is the socket's: cancelling destroys the request
 * and its socket, and the answer the application is about to send would be lost with it.
 * Never in the tick of a read either (see the header comment).
 */
function discardRest(reader: Reader, overBudget: boolean, settled: () => void): void {
  let stopped = false;
  let discarded = 0;
  const stop = (cancelAfter: boolean): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(budget);
    if (cancelAfter) setTimeout(cancel, DRAIN_LIMIT_MS, reader);
    settled();
  };
  const spent = (): void => stop(true);
  const ended = (): void => stop(false);
  const budget = setTimeout(spent, DRAIN_LIMIT_MS);
  const onRead = ({ done, value }: Awaited<ReturnType<Reader['read']>>): void => {
    if (stopped) return;
    if (done) {
      ended();
      return;
    }
    discarded += bytesOf(value)?.length ?? 0;
    if (discarded > DRAIN_LIMIT_BYTES) spent();
    // A rejected read is the client gone while the rest was read off: nothing more will come.
    else reader.read().then(onRead, ended);
  };
  if (overBudget) spent();
  else reader.read().then(onRead, ended);
}

/**
 * Cancels a reader once the current macrotask is over, never in the tick of a read (see the
 * header comment: Node's `Readable.toWeb` throws out of its stream otherwise).
 */
function cancelLater(reader: Reader): void {
  setTimeout(cancel, 0, reader);
}

function cancel(reader: Reader): void {
  reader.cancel().then(ignore, ignore);
}

/**
 * Below this length a chunk is copied into a Buffer rather than viewed: on Bun (JavaScriptCore)
 * a small typed array keeps its bytes in the garbage-collected heap, and reading its `buffer`
 * moves them out, about 0.25 µs where copying 100 bytes costs 0.04. Elsewhere `buffer` is free.
 */
const COPIED_BELOW = ON_BUN ? 1024 : 0;

/** A chunk as a Buffer (a view of it, or a copy when small: COPIED_BELOW); null if not bytes. */
function bytesOf(value: unknown): Buffer | null {
  if (!(value instanceof Uint8Array)) return null;
  return value.byteLength < COPIED_BELOW
    ? Buffer.from(value)
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** Resolves once a decompressor takes more input, or is gone (destroyed after an error). */
function writable(stream: Transform): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.removeListener('drain', done);
      stream.removeListener('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
