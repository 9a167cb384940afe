// What every door shares: a logger's options and format resolved once, and the function that
// writes one exchange's line (skip, format, stream, OpenTelemetry record). The doors on
// node:http (node-exchange.ts: the Node middleware, Koa, Fastify) and the fetch wrapper
// (fetch.ts) each fill an `Exchange` their own way and hand it to `log`.

import { failureOf } from '../failures.js';
import { type BodyFields, bodyFieldsText, resolveBodyFields } from './core/body-fields.js';
import { bufferedStream, bufferInterval, warnBufferDeprecated } from './core/buffer.js';
import {
  type ArrivalExclusion,
  type Controls,
  keptByTraceId,
  LEVELS,
  raisedForSlow,
  resolveControls,
} from './core/controls.js';
import type { Exchange } from './core/exchange.js';
import { enterLine, Line, LineSlot, leaveLine } from './core/line.js';
import { isOff, isUnset } from './core/option-off.js';
import { type ProxyResolver, proxyResolver } from './core/proxy.js';
import { DEFAULT_POLICY, type RedactPolicy, resolveRedact } from './core/redact.js';
import { tokensFor } from './core/redacting-registry.js';
import { newRequestId } from './core/request-id.js';
import { catchAsyncWrite, guardStreamErrors } from './core/stream.js';
import { spanOf, statusCodeOf } from './core/timing.js';
import { isBuiltinDefinition, registryVersion } from './core/token-registry.js';
import { HEAD_TOKENS } from './core/tokens.js';
import { traceIdOf } from './core/traceparent.js';
import { onceWarning } from './core/warnings.js';
import { colourAllowed, devColoured, devPlain, findFormat, isEcsFormat } from './formats.js';
import { arrivalEcs, arrivalJson } from './json/arrival.js';
import { lineDuration } from './json/builtins.js';
import { formatForLogger, isJsonFormat } from './json/format.js';
import { defaultLevelOf } from './json/presets.js';
import { type OtelOutput, otelOff, resolveOtel } from './otel/records.js';
import { compile, tokenNamesOf, withoutColour } from './text/compile.js';
import type { FormatFn, LogRequest, LogResponse, LogStream } from './types.js';

/** W3C Trace Context's `sampled` bit of trace-flags: the caller may have recorded the trace. */
const TRACE_FLAG_SAMPLED = 0x01;

/** What a door needs of a logger made from a format and options. */
export interface LineWriter {
  /** Writes the line (and record) of an exchange whose response is done. */
  readonly log: (exchange: Exchange) => void;
  /** What the format reads, so that a door records nothing else per request. */
  readonly needs: Needs;
  /** Whether the format may call the application's code now (see applicationTokensWatcher). */
  readonly callsApplication: () => boolean;
  readonly immediate: boolean;
  readonly skip: ((req: LogRequest, res: LogResponse) => unknown) | undefined;
  /** Whether `skip` or `level` (application code, which may read the async context) is given. */
  readonly callbacks: boolean;
  /** The client's address behind trusted proxies (`trustProxy`); undefined when off. */
  readonly proxy: ProxyResolver | undefined;
  /** Writes the arrival line of the `start` option; undefined when off. */
  readonly arrival: ((exchange: Exchange) => void) | undefined;
  /** Whether a request is left out on arrival (`exclude`'s paths and methods); undefined when off. */
  readonly excluded: ArrivalExclusion | undefined;
}

/** Options resolved once, when a logger is created. */
interface ResolvedOptions {
  readonly immediate: boolean;
  readonly skip: ((req: LogRequest, res: LogResponse) => unknown) | undefined;
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
  readonly proxy: ProxyResolver | undefined;
  /** `start`: the arrival line's format as given (`true`: the default one); undefined when off. */
  readonly start: unknown;
  /** `body`: the request body fields of JSON lines and records; undefined when off. */
  readonly body: BodyFields | undefined;
  /** `exclude`, `sample`, `slow` and `level`; undefined when none is given. */
  readonly controls: Controls | undefined;
}

function resolveFormat(format: unknown): FormatFn<LogRequest, LogResponse> {
  if (typeof format === 'function') {
    const fn = format as FormatFn<LogRequest, LogResponse>;
    // A format made by `logger.compile` colours as a format string does.
    return colourAllowed() ? fn : withoutColour(fn);
  }
  if (typeof format !== 'string') {
    throw new TypeError(
      'argument format must be a string (a format name or a format string) or a function',
    );
  }
  // A string that is not a format name is a format string.
  const resolved = findFormat(format) ?? compile(format);
  // The colour decision is made here, once per logger, so NO_COLOR set by the application
  // before it creates the logger is honoured: by `dev`, and by `:status[color]` anywhere.
  if (colourAllowed()) return resolved;
  return resolved === devColoured ? devPlain : withoutColour(resolved);
}

const proxyFailed = onceWarning(
  'HTTPWARE_LOGGER_PROXY',
  'logger: the trustProxy function threw; that hop is not trusted',
);

function resolveOptions(options: unknown, defaultStream: () => LogStream): ResolvedOptions {
  if (isUnset(options)) {
    return {
      immediate: false,
      skip: undefined,
      stream: defaultStream(),
      otel: undefined,
      bufferMs: undefined,
      redact: DEFAULT_POLICY,
      verbatim: false,
      proxy: undefined,
      start: undefined,
      body: undefined,
      controls: undefined,
    };
  }
  if (typeof options !== 'object') {
    throw new TypeError('argument options must be an object');
  }
  const {
    immediate,
    skip,
    stream,
    buffer,
    redact,
    otel,
    errorMessage,
    trustProxy,
    forwardedHeader,
    start,
    body,
  } = options as Record<string, unknown>;
  // Absent, `null` and (for skip and start) `false` all mean "not set" (core/option-off.ts).
  const skipGiven = !isOff(skip);
  if (skipGiven && typeof skip !== 'function') {
    throw new TypeError('option skip must be a function');
  }
  const streamGiven = !isUnset(stream);
  if (
    streamGiven &&
    (typeof stream !== 'object' || typeof (stream as { write?: unknown }).write !== 'function')
  ) {
    throw new TypeError('option stream must be a writable stream (an object with a write method)');
  }
  if (!isUnset(errorMessage) && errorMessage !== 'safe' && errorMessage !== 'verbatim') {
    throw new TypeError('option errorMessage must be "safe" or "verbatim"');
  }
  const startGiven = !isOff(start);
  if (startGiven && start !== true && typeof start !== 'string' && typeof start !== 'function') {
    throw new TypeError('option start must be true, a format name, a format string or a function');
  }
  // `immediate` writes its one line on arrival already: a second arrival line would be a copy.
  if (startGiven && immediate) {
    throw new TypeError('options start and immediate cannot be used together');
  }
  const policy = resolveRedact(redact);
  return {
    // Truthiness, as in morgan: `immediate: 1` or `immediate: 'yes'` turns it on.
    immediate: Boolean(immediate),
    controls: resolveControls(options as Record<string, unknown>, Boolean(immediate)),
    skip: skipGiven ? (skip as ResolvedOptions['skip']) : undefined,
    // Resolved now, as morgan does: replacing process.stdout later does not move the logs.
    // With OpenTelemetry records and no stream, the records are the only output.
    stream: streamGiven ? (stream as LogStream) : otelOff(otel) ? defaultStream() : undefined,
    otel,
    bufferMs: bufferInterval(buffer),
    redact: policy,
    verbatim: errorMessage === 'verbatim',
    proxy: proxyResolver(trustProxy, forwardedHeader, proxyFailed),
    start: startGiven ? start : undefined,
    body: resolveBodyFields(body, policy),
  };
}

/**
 * What a format's built-in tokens read, so that nothing else is recorded per request. A format
 * that may call the application's code records everything (see `applicationTokensWatcher`).
 */
function needsOf(
  format: FormatFn<LogRequest, LogResponse>,
  otel: OtelOutput | undefined,
  arrival: FormatFn<LogRequest, LogResponse> | undefined,
  controls: Controls | undefined,
): Needs {
  const names = [
    ...(tokenNamesOf(format) ?? []),
    ...(otel?.tokenNames ?? []),
    ...((arrival && tokenNamesOf(arrival)) ?? []),
    // A slow request is told by its total time; sampling reads the trace id.
    ...(controls?.slowMs === undefined ? [] : ['total-time']),
    ...(controls?.byTraceId ? ['trace-id'] : []),
  ];
  const has = (name: string) => names.includes(name);
  const bytes = has('res-body-bytes') || tokenNamesOf(format) === undefined;
  return {
    head: names.some((name) => HEAD_TOKENS.has(name)),
    headTime: has('response-time'),
    arrival: has('response-time') || has('total-time'),
    address: has('remote-addr'),
    span: has('trace-id') || has('span-id') || has('trace-flags'),
    // A format function may ask for any token; a custom token in a format string may too, but
    // counting every response's writes for that is not worth it (the size is then the
    // announced length).
    bytes,
    delivered: bytes || has('total-time') || has('error-type') || has('error-message'),
  };
}

export interface Needs {
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
  /**
   * Wait for the end of the response's body: its time (`:total-time`), its size, or a failure
   * recorded while it was sent. A format function counts as reading all of them.
   */
  readonly delivered: boolean;
}

/**
 * Whether a format may call the application's code: it is a format function, or one of its
 * tokens is not (or no longer) the built-in one. Such code may call any token (a token through
 * `this`) and read an AsyncLocalStorage. Asked per request, since `logger.token` may replace a
 * token after the logger was made; the answer is kept until the registry changes.
 */
function applicationTokensWatcher(
  format: FormatFn<LogRequest, LogResponse>,
  arrival?: FormatFn<LogRequest, LogResponse>,
): () => boolean {
  const lineNames = tokenNamesOf(format);
  const arrivalNames = arrival === undefined ? [] : tokenNamesOf(arrival);
  if (lineNames === undefined || arrivalNames === undefined) return () => true;
  const names = arrivalNames.length === 0 ? lineNames : [...lineNames, ...arrivalNames];
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

export function lineWriter(
  format: unknown,
  options: unknown,
  defaultStream: () => LogStream,
): LineWriter {
  const {
    immediate,
    skip,
    stream: target,
    bufferMs,
    redact,
    otel: otelOption,
    verbatim,
    proxy,
    start,
    body,
    controls,
  } = resolveOptions(options, defaultStream);
  // A JSON format is made for this logger's redaction lists and stream (objects for an
  // object-mode stream); format strings and functions get tokens that follow the same lists.
  const objectMode = (target as { writableObjectMode?: unknown })?.writableObjectMode === true;
  const resolved = resolveFormat(format);
  const bodyText = bodyReader(body, resolved, otelOption);
  const jsonLines = isJsonFormat(resolved);
  // A JSON line carries the body fields and the controls' fields as its last fields.
  const added =
    jsonLines && (bodyText !== undefined || controls !== undefined)
      ? { body: bodyText, ecs: isEcsFormat(resolved), controls: controls !== undefined }
      : undefined;
  const formatLine = formatForLogger(resolved, redact, objectMode, added);
  const otel = resolveOtel(otelOption, resolved, redact, bodyText);
  // The line is made to be written, or as the body of a record (a text format's line).
  const makesLine = target !== undefined || !jsonLines;
  const tokens = tokensFor(redact);
  const arrivalFormat = arrivalFormatOf(start, resolved, redact, objectMode, target);
  const needs = needsOf(formatLine, otel, arrivalFormat, controls);
  const callsApplication = applicationTokensWatcher(formatLine, arrivalFormat);
  if (target !== undefined) guardStreamErrors(target);

  const skipFailed = onceWarning(
    'HTTPWARE_LOGGER_SKIP',
    'logger: the skip function threw; the request is logged',
  );
  const levelFailed = onceWarning(
    'HTTPWARE_LOGGER_LEVEL',
    'logger: the level function threw or returned no level; the default level is used',
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

  const lines = new LineSlot(verbatim);

  function log(exchange: Exchange): void {
    // Tokens find the line, and its exchange, while it is made (see core/line.ts).
    const line = lines.take(exchange);
    const previous = enterLine(line);
    try {
      if (controls === undefined) writeLine(exchange);
      else writeControlled(exchange, line);
    } finally {
      leaveLine(previous);
      lines.giveBack(line);
    }
  }

  function skipped(req: LogRequest, res: LogResponse): boolean {
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

  /**
   * The arrival line (`start`): made when the request comes, under the request id both lines
   * carry. A request without one (no requestId middleware or option before the logger) is
   * given a new UUID as `req.id`, so the completion line, and the application, read the same.
   * `skip` is asked then as well, with the response not begun.
   */
  function logArrival(exchange: Exchange): void {
    const req = exchange.req as { id?: unknown };
    if (req.id === undefined || req.id === null || req.id === '') req.id = newRequestId();
    // Errors' messages are the safe ones on an arrival line, whatever `errorMessage` says.
    const previous = enterLine(new Line(exchange, false));
    try {
      if (skipped(exchange.req, exchange.res)) return;
      let line: unknown;
      try {
        line = (arrivalFormat as FormatFn<LogRequest, LogResponse>)(
          tokens,
          exchange.req,
          exchange.res,
        );
      } catch (err) {
        // As for the completion line: warned once, and no line (`line` stays undefined).
        formatFailed(err);
      }
      if (line !== undefined && line !== null) write(stream as LogStream, line);
    } finally {
      leaveLine(previous);
    }
  }

  function writeLine(exchange: Exchange): void {
    const { req, res } = exchange;
    if (skipped(req, res)) return;
    writeOut(exchange);
  }

  /** The level the `level` function gives, or undefined (the default) when it fails. */
  function levelFor(req: LogRequest, res: LogResponse): string | undefined {
    const level = (controls as Controls).level;
    if (level === undefined) return undefined;
    try {
      const given = level(req, res);
      if (typeof given === 'string' && LEVELS.has(given)) return given;
      levelFailed(new TypeError(`not a level: ${String(given)}`));
    } catch (err) {
      levelFailed(err);
    }
    return undefined;
  }

  /** Whether a request kept by no other rule is in the sampled share. */
  function sampledIn(req: LogRequest, c: Controls): boolean {
    if (c.byTraceId) {
      // An active span: its trace's own decision, whatever sampler made it, so that there is
      // a line for each sampled trace and none for the others (OpenTelemetry JS's
      // TraceIdRatioBasedSampler does not decide by the rule below).
      const span = spanOf(req);
      if (span !== undefined) return (span.traceFlags & TRACE_FLAG_SAMPLED) !== 0;
      // A traceparent alone: its trace id by the rule every logger and service shares, not
      // its sampled flag, which would let any client, or an upstream sampling at another
      // rate, set the share of lines kept.
      const id = traceIdOf(req.headers.traceparent);
      if (id !== undefined) return keptByTraceId(id, c.threshold);
    }
    return Math.random() < (c.rate as number);
  }

  /**
   * The line of a logger with production controls: left out by status, by `skip`, by sampling
   * or a `silent` level, in that order, before any token is computed; else written with its
   * level, `slow` and `sampling.rate`.
   */
  function writeControlled(exchange: Exchange, line: Line): void {
    const c = controls as Controls;
    const { req, res } = exchange;
    const status = statusCodeOf(res);
    if (c.excludedStatus !== undefined && status !== undefined && c.excludedStatus(status)) return;
    if (skipped(req, res)) return;
    // The duration judged here is the line's (read once per line, line.ts).
    const ms = c.slowMs === undefined ? undefined : lineDuration(req, res);
    const slow = ms !== undefined && ms >= (c.slowMs as number);
    let rate: number | undefined;
    if (c.rate !== undefined) {
      // Failures and slow requests are all kept: a line stands for itself alone (rate 1).
      const kept =
        slow || status === undefined || status >= c.keepStatus || failureOf(req) !== undefined;
      if (!kept && !sampledIn(req, c)) return;
      rate = kept ? 1 : c.rate;
    }
    let level = levelFor(req, res);
    // A slow request is always logged: `silent` gives way to the raised level.
    if (level === 'silent' && !slow) return;
    if (slow)
      level = raisedForSlow(
        level === 'silent' ? defaultLevelOf(res) : (level ?? defaultLevelOf(res)),
      );
    line.level = level;
    line.slow = slow ? true : undefined;
    line.rate = rate;
    writeOut(exchange);
  }

  function writeOut(exchange: Exchange): void {
    const { req, res } = exchange;
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

  const arrival = arrivalFormat === undefined ? undefined : logArrival;
  const callbacks = skip !== undefined || controls?.level !== undefined;
  return {
    log,
    needs,
    callsApplication,
    immediate,
    skip,
    callbacks,
    proxy,
    excluded: controls?.excluded,
    arrival,
  };
}

/**
 * The `start` option's format, made for this logger: the one given, or by default a short
 * text line, or the JSON formats' own arrival lines. Undefined when the option is off.
 */
function arrivalFormatOf(
  start: unknown,
  resolved: FormatFn<LogRequest, LogResponse>,
  redact: RedactPolicy,
  objectMode: boolean,
  target: LogStream | undefined,
): FormatFn<LogRequest, LogResponse> | undefined {
  if (start === undefined) return undefined;
  if (target === undefined) {
    throw new TypeError(
      'option start writes lines: give a stream (OpenTelemetry records are one per finished request)',
    );
  }
  const format =
    start !== true
      ? resolveFormat(start)
      : !isJsonFormat(resolved)
        ? resolveFormat(DEFAULT_ARRIVAL)
        : isEcsFormat(resolved)
          ? arrivalEcs
          : arrivalJson;
  return formatForLogger(format, redact, objectMode);
}

/** The text formats' arrival line: what is known when a request comes, and its id. */
const DEFAULT_ARRIVAL = 'started :method :url :request-id';

/**
 * The `body` option's reader of `req.body`, or undefined when off. Body fields are written by
 * JSON lines and OpenTelemetry records only: with neither, the option is a mistake.
 */
function bodyReader(
  body: BodyFields | undefined,
  format: FormatFn<LogRequest, LogResponse>,
  otel: unknown,
): ((req: LogRequest) => string | undefined) | undefined {
  if (body === undefined) return undefined;
  if (!isJsonFormat(format) && otelOff(otel)) {
    throw new TypeError(
      'option body needs a JSON format (json, ecs, logger.json) or otel: text lines carry no body fields',
    );
  }
  // Whatever parser ran: only a plain object is read (see core/body-fields.ts).
  return (req) => bodyFieldsText(body, (req as { body?: unknown }).body);
}
