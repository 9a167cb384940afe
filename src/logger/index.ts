// The public logger: `logger(format, options)` returns the middleware; `logger.token`,
// `logger.format` and `logger.compile` work on the registries.

import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { recordFailure } from '../failures.js';
import { captureContext } from './core/active-span.js';
import { meterBody } from './core/body-bytes.js';
import { bufferedStream, bufferInterval, warnBufferDeprecated } from './core/buffer.js';
import { verbatimMessages } from './core/failure.js';
import { DEFAULT_POLICY, type RedactPolicy, redactDefaults, resolveRedact } from './core/redact.js';
import { tokensFor } from './core/redacting-registry.js';
import { requestId } from './core/request-id.js';
import { catchAsyncWrite, guardStreamErrors } from './core/stream.js';
import {
  abandon,
  arrive,
  countLogger,
  Exchange,
  enter,
  frameworkIp,
  leave,
  onClose,
  socketAddress,
  watchHead,
} from './core/timing.js';
import { defineToken, isBuiltinDefinition, registryVersion } from './core/token-registry.js';
import { HEAD_TOKENS } from './core/tokens.js';
import { onceWarning } from './core/warnings.js';
import { colourAllowed, defineFormat, devColoured, devPlain, findFormat } from './formats.js';
import { formatForLogger, isJsonFormat, jsonFormat } from './json/format.js';
import { jsonPresets } from './json/presets.js';
import { type OtelOutput, otelOff, resolveOtel } from './otel/records.js';
import { compile, tokenNamesOf } from './text/compile.js';
import type { FormatFn, Logger, LoggerMiddleware, LogStream, TokenFn } from './types.js';

type Request = IncomingMessage;
type Response = ServerResponse;

/** Options resolved once, when a logger is created. */
interface ResolvedOptions {
  readonly immediate: boolean;
  readonly skip: ((req: Request, res: Response) => unknown) | undefined;
  /** Where lines go; undefined when only OpenTelemetry records are emitted (`otel`, no stream). */
  readonly stream: LogStream | undefined;
  /** The `otel` option as given (resolved with the format, in `logger`). */
  readonly otel: unknown;
  /** Flush interval of morgan's deprecated `buffer` option, or undefined (no buffering). */
  readonly bufferMs: number | undefined;
  /** What the logger's lines mask (the `redact` option). */
  readonly redact: RedactPolicy;
  /** `errorMessage: 'verbatim'`: every error's own message, even one that may quote a body. */
  readonly verbatim: boolean;
}

function resolveFormat(format: unknown): FormatFn {
  if (typeof format === 'function') return format as FormatFn;
  if (typeof format !== 'string') {
    throw new TypeError(
      'argument format must be a string (a format name or a format string) or a function',
    );
  }
  const named = findFormat(format);
  // The colour decision is made here, once per logger, so NO_COLOR set by the application
  // before it creates the logger is honoured.
  if (named === devColoured && !colourAllowed()) return devPlain;
  // A string that is not a format name is a format string.
  return named ?? compile(format);
}

function resolveOptions(options: unknown): ResolvedOptions {
  if (options === undefined || options === null) {
    return {
      immediate: false,
      skip: undefined,
      stream: process.stdout,
      otel: undefined,
      bufferMs: undefined,
      redact: DEFAULT_POLICY,
      verbatim: false,
    };
  }
  if (typeof options !== 'object') {
    throw new TypeError('argument options must be an object');
  }
  const { immediate, skip, stream, buffer, redact, otel, errorMessage } = options as Record<
    string,
    unknown
  >;
  // Absent, `null` and (for skip) `false` all mean "not set", as they do in morgan, which reads
  // these options by truthiness: `{ stream: cond ? file : null }` keeps working after migration.
  const skipGiven = skip !== undefined && skip !== null && skip !== false;
  if (skipGiven && typeof skip !== 'function') {
    throw new TypeError('option skip must be a function');
  }
  const streamGiven = stream !== undefined && stream !== null;
  if (
    streamGiven &&
    (typeof stream !== 'object' || typeof (stream as { write?: unknown }).write !== 'function')
  ) {
    throw new TypeError('option stream must be a writable stream (an object with a write method)');
  }
  // `null` is "not set", as for morgan's options.
  if (
    errorMessage !== undefined &&
    errorMessage !== null &&
    errorMessage !== 'safe' &&
    errorMessage !== 'verbatim'
  ) {
    throw new TypeError('option errorMessage must be "safe" or "verbatim"');
  }
  return {
    // Truthiness, as in morgan: `immediate: 1` or `immediate: 'yes'` turns it on.
    immediate: Boolean(immediate),
    skip: skipGiven ? (skip as ResolvedOptions['skip']) : undefined,
    // Resolved now, as morgan does: replacing process.stdout later does not move the logs.
    // With OpenTelemetry records and no stream, the records are the only output.
    stream: streamGiven ? (stream as LogStream) : otelOff(otel) ? process.stdout : undefined,
    otel,
    bufferMs: bufferInterval(buffer),
    redact: resolveRedact(redact),
    verbatim: errorMessage === 'verbatim',
  };
}

/**
 * What a format's built-in tokens read, so that nothing else is recorded per request. A format
 * that may call the application's code records everything (see `applicationTokensWatcher`).
 */
function needsOf(format: FormatFn, otel: OtelOutput | undefined): Needs {
  const names = [...(tokenNamesOf(format) ?? []), ...(otel?.tokenNames ?? [])];
  const has = (name: string) => names.includes(name);
  return {
    head: names.some((name) => HEAD_TOKENS.has(name)),
    headTime: has('response-time'),
    arrival: has('response-time') || has('total-time'),
    address: has('remote-addr'),
    span: has('trace-id') || has('span-id') || has('trace-flags'),
    // A format function may ask for any token; a custom token in a format string may too, but
    // counting every response's writes for that is not worth it (the size is then the
    // announced length).
    bytes: has('res-body-bytes') || tokenNamesOf(format) === undefined,
  };
}

interface Needs {
  /** Watch the head (its time or its headers: `:response-time`, `:res[...]`). */
  readonly head: boolean;
  /** Read the clock when the head is written (`:response-time`). */
  readonly headTime: boolean;
  /** Read the clock on arrival (`:response-time`, `:total-time`). */
  readonly arrival: boolean;
  /** Record the client's address on arrival (`:remote-addr`). */
  readonly address: boolean;
  /** Capture the OpenTelemetry context on arrival (`:trace-id`, `:span-id`, `:trace-flags`). */
  readonly span: boolean;
  /** Count the bytes of a body sent without a length (`:res-body-bytes`, the JSON sizes). */
  readonly bytes: boolean;
}

/**
 * Whether a format may call the application's code: it is a format function, or one of its
 * tokens is not (or no longer) the built-in one. Such code may call any token (a token through
 * `this`) and read an AsyncLocalStorage. Asked per request, since `logger.token` may replace a
 * token after the logger was made; the answer is kept until the registry changes.
 */
function applicationTokensWatcher(format: FormatFn): () => boolean {
  const names = tokenNamesOf(format);
  if (names === undefined) return () => true;
  let checkedAt = -1;
  let answer = true;
  return () => {
    if (checkedAt !== registryVersion()) {
      checkedAt = registryVersion();
      answer = names.some((name) => !isBuiltinDefinition(name));
    }
    return answer;
  };
}

/**
 * Whether the response is already done (on-finished's test): ended, or its socket can no
 * longer be written. Then no 'close' may come, and the line is written at once.
 */
function isFinished(res: Response): boolean {
  return res.writableEnded || (res.socket != null && !res.socket.writable);
}

/** `new AsyncResource` options: the resource is destroyed explicitly once the line is written. */
const MANUAL_DESTROY = { requireManualDestroy: true } as const;

/**
 * Calls `log(exchange)` once when the response is done. One 'close' listener is enough: a
 * response emits 'close' after 'finish' when it was sent, and on its own when the connection
 * closed first (an aborted request), on every Node this package supports (>= 20). Several
 * loggers on one response share that listener (`onClose`). A response closed before the
 * application answered is logged a turn later (`abandon`), so that the line can name an answer
 * given to the failed request; that costs nothing to a response that was answered.
 *
 * When the line may run the application's code (`withContext`), it is made in the async
 * context of this call (as on-finished does), so that code sees the request's
 * AsyncLocalStorage store even though 'close' is emitted from another context (the socket's,
 * or one the handler left with `als.exit`). This is a plain `AsyncResource` entered with
 * `runInAsyncScope`, not `AsyncResource.bind`: on Node 20 `bind` wraps the function through
 * `util.deprecate` twice per call. Destroyed explicitly (not when collected), so async_hooks
 * users with a destroy hook see it end as soon as the line is out. Built-in tokens read no
 * async context, so a line made only of them needs no resource, which is most of the cost of
 * keeping one per request.
 */
function whenDone(exchange: Exchange, log: (exchange: Exchange) => void, withContext: boolean) {
  const res = exchange.res;
  if (isFinished(res)) {
    // setImmediate carries the current async context by itself.
    setImmediate(log, exchange);
    return;
  }
  let line = log;
  if (withContext) {
    const context = new AsyncResource('httpware.logger', MANUAL_DESTROY);
    line = () => {
      try {
        context.runInAsyncScope(log, undefined, exchange);
      } finally {
        context.emitDestroy();
      }
    };
  }
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
    else abandon(exchange, line);
  };
  onClose(res, done);
}

function logger(format: unknown, options?: unknown): LoggerMiddleware {
  const {
    immediate,
    skip,
    stream: target,
    bufferMs,
    redact,
    otel: otelOption,
    verbatim,
  } = resolveOptions(options);
  // A JSON format is made for this logger's redaction lists and stream (objects for an
  // object-mode stream); format strings and functions get tokens that follow the same lists.
  const objectMode = (target as { writableObjectMode?: unknown })?.writableObjectMode === true;
  const resolved = resolveFormat(format);
  const formatLine = formatForLogger(resolved, redact, objectMode);
  const otel = resolveOtel(otelOption, resolved, redact);
  // The line is made to be written, or as the body of a record (a text format's line).
  const makesLine = target !== undefined || !isJsonFormat(resolved);
  const tokens = tokensFor(redact);
  const needs = needsOf(formatLine, otel);
  const callsApplication = applicationTokensWatcher(formatLine);
  if (target !== undefined) guardStreamErrors(target);

  const skipFailed = onceWarning(
    'HTTPWARE_LOGGER_SKIP',
    'logger: the skip function threw; the request is logged',
  );
  const formatFailed = onceWarning(
    'HTTPWARE_LOGGER_FORMAT',
    'logger: the format function threw; the request is not logged',
  );
  const writeFailed = onceWarning(
    'HTTPWARE_LOGGER_STREAM',
    'logger: the log stream threw on write; the line is lost',
  );
  if (bufferMs !== undefined) warnBufferDeprecated();
  const stream =
    bufferMs === undefined || target === undefined
      ? target
      : bufferedStream(target, bufferMs, (err) => writeFailed(err));

  function logRequest(exchange: Exchange): void {
    // Tokens find the exchange through `current` while the line is made (see timing.ts).
    const previous = enter(exchange);
    try {
      writeLine(exchange);
    } finally {
      leave(previous);
    }
  }

  // Errors' own messages for this logger's line alone; a default logger's lines pay nothing.
  const log = verbatim
    ? (exchange: Exchange): void => {
        const previous = verbatimMessages(true);
        try {
          logRequest(exchange);
        } finally {
          verbatimMessages(previous);
        }
      }
    : logRequest;

  function skipped(req: Request, res: Response): boolean {
    if (skip === undefined) return false;
    try {
      return Boolean(skip(req, res));
    } catch (err) {
      skipFailed(err);
      return false;
    }
  }

  function write(out: LogStream, line: unknown): void {
    try {
      const result =
        out.writableObjectMode && typeof line === 'object'
          ? (out as { write(chunk: unknown): unknown }).write(line)
          : // biome-ignore lint/style/useTemplate: `+` keeps morgan's exact conversion of non-strings
            out.write(line + '\n');
      catchAsyncWrite(result, writeFailed);
    } catch (err) {
      writeFailed(err);
    }
  }

  function writeLine(exchange: Exchange): void {
    const { req, res } = exchange;
    if (skipped(req, res)) return;
    otel?.startLine();
    let line: unknown;
    if (makesLine) {
      try {
        line = formatLine(tokens, req, res);
      } catch (err) {
        formatFailed(err);
        return;
      }
      if (line === undefined || line === null) return;
      if (stream !== undefined) write(stream, line);
    }
    otel?.emit(exchange, tokens, line);
  }

  countLogger();
  return function logger(req: Request, res: Response, next: (err?: unknown) => void): void {
    // The application's format function or tokens may call any token: everything is recorded.
    // A skip function is not handed the tokens, but may read the async context too.
    const any = callsApplication();
    const timed = needs.arrival || any;
    const exchange = new Exchange(
      req,
      res,
      arrive(req, timed),
      needs.address || any ? frameworkIp(req) || socketAddress(req) : undefined,
      timed && res.headersSent,
    );
    if (needs.span || any) exchange.context = captureContext();
    // With `immediate` no head has been written when the line is made: nothing to watch.
    if (immediate) {
      log(exchange);
    } else {
      if (needs.head || any) watchHead(exchange, needs.headTime || any);
      if (needs.bytes) exchange.meter = meterBody(req, res);
      whenDone(exchange, log, any || skip !== undefined);
    }
    next();
  };
}

function token<Req, Res>(name: string, fn: TokenFn<Req, Res>): Logger {
  if (typeof name !== 'string') throw new TypeError('argument name must be a string');
  if (typeof fn !== 'function') throw new TypeError('argument fn must be a function');
  defineToken(name, fn);
  return publicLogger;
}

function format<Req, Res>(name: string, fmt: string | FormatFn<Req, Res>): Logger {
  if (typeof name !== 'string') throw new TypeError('argument name must be a string');
  if (typeof fmt !== 'string' && typeof fmt !== 'function') {
    throw new TypeError('argument format must be a string or a function');
  }
  defineFormat(name, fmt as string | FormatFn);
  return publicLogger;
}

/**
 * Records why a request failed, for its line (`error.type`, `error.message`, `:error-type`):
 * what a body parser of ours rejected is recorded by the parser; an application records its
 * own failures, typically from its error handler. Kept off `req` (see src/failures.ts).
 */
function recordError(req: object, err: unknown): void {
  if (typeof req !== 'object' || req === null) {
    throw new TypeError('argument req must be the request');
  }
  recordFailure(req, err);
}

/** The request logger (morgan's drop-in successor). */
const json = Object.assign(jsonFormat, { presets: jsonPresets });

const publicLogger: Logger = Object.assign(logger, {
  token,
  format,
  compile,
  json,
  requestId,
  recordError,
  redactDefaults,
}) as Logger;

export { publicLogger as logger, recordError, redactDefaults, requestId };
export default publicLogger;
