// What every door shares: a logger's format resolved once with its options (./options.ts), and
// the writing of one exchange's lines: the arrival line (`immediate`, `start`), then the line
// when the response is done (controls, skip, format, stream, OpenTelemetry record). The doors
// on node:http (node-exchange.ts: the Node middleware, Koa, Fastify) and the fetch wrapper
// (fetch.ts) each fill an `Exchange` their own way and hand it to `arrived`, then to `log`.

import { failureOf } from '../failures.js';
import { type BodyFields, bodyFieldsText } from './core/body-fields.js';
import { bufferedStream, warnBufferDeprecated } from './core/buffer.js';
import {
  type ArrivalExclusion,
  type Controls,
  keptByTraceId,
  LEVELS,
  raisedForSlow,
} from './core/controls.js';
import type { Exchange } from './core/exchange.js';
import { enterLine, Line, LineSlot, leaveLine } from './core/line.js';
import type { RedactPolicy } from './core/redact.js';
import { tokensFor } from './core/redacting-registry.js';
import { newRequestId } from './core/request-id.js';
import { catchAsyncWrite, guardStreamErrors } from './core/stream.js';
import { spanOf, statusCodeOf } from './core/timing.js';
import { isBuiltinDefinition, registryVersion } from './core/token-registry.js';
import { HEAD_TOKENS } from './core/tokens.js';
import { traceIdOf } from './core/traceparent.js';
import { onceWarning } from './core/warnings.js';
import { isEcsFormat } from './formats.js';
import { arrivalEcs, arrivalJson } from './json/arrival.js';
import { lineDuration } from './json/builtins.js';
import { formatForLogger, isJsonFormat } from './json/format.js';
import { defaultLevelOf } from './json/presets.js';
import {
  type DoorDefaults,
  type LoggerOptions,
  resolveFormat,
  resolveLoggerOptions,
} from './options.js';
import type { HttpMetrics } from './otel/metrics.js';
import { type OtelOutput, otelOff, resolveOtel } from './otel/records.js';
import { tokenNamesOf } from './text/compile.js';
import type { FormatFn, LogRequest, LogResponse, LogStream } from './types.js';

/** W3C Trace Context's `sampled` bit of trace-flags: the caller may have recorded the trace. */
const TRACE_FLAG_SAMPLED = 0x01;

type Format = FormatFn<LogRequest, LogResponse>;

/** What a door needs of a logger made from a format and options. */
export interface LineWriter {
  /** The logger's options, resolved and frozen (./options.ts). */
  readonly options: LoggerOptions;
  /** Writes the line (and record) of an exchange whose response is done. */
  readonly log: (exchange: Exchange) => void;
  /**
   * What every door does when a request arrives, once its exchange is filled: with
   * `immediate`, the line now, by `line(door)` (true: the door does nothing more); else the
   * arrival line of `start`, if on (false: the door waits for the response).
   */
  readonly arrived: <D>(exchange: Exchange, door: D, line: (door: D) => void) => boolean;
  /** Whether `exclude` leaves a request out on arrival (its method and URL); false when off. */
  readonly excluded: ArrivalExclusion;
  /** Whether `exclude` is on: a door may then skip the question altogether. */
  readonly excludes: boolean;
  /** What the format reads, so that a door records nothing else per request. */
  readonly needs: Needs;
  /** Whether the format may call the application's code now (see applicationTokensWatcher). */
  readonly callsApplication: () => boolean;
  /** Whether `skip` or `level` (application code, which may read the async context) is given. */
  readonly callbacks: boolean;
}

/** The warnings a logger gives once each, when the application's code or the stream fails. */
class Warnings {
  readonly skip = onceWarning(
    'HTTPWARE_LOGGER_SKIP',
    'logger: the skip function threw; the request is logged',
  );
  readonly level = onceWarning(
    'HTTPWARE_LOGGER_LEVEL',
    'logger: the level function threw or returned no level; the default level is used',
  );
  readonly format = onceWarning(
    'HTTPWARE_LOGGER_FORMAT',
    'logger: the format function threw; the request is not logged',
  );
  readonly write = onceWarning(
    'HTTPWARE_LOGGER_STREAM',
    'logger: the log stream threw on write; the line is lost',
  );
}

/**
 * What the `metrics` option reads of each request, as a format's tokens would: the route too,
 * which a door asks its framework for only when something reads it (`needs.route`).
 */
const METRICS_TOKENS = ['total-time', 'res-body-bytes', 'error-type', 'route'];

/** No `exclude`: every request is logged. */
const included: ArrivalExclusion = () => false;

/** Makes the writer of a logger: `format` and `options` as given to the door's factory. */
export function lineWriter(format: unknown, given: unknown, door: DoorDefaults): LineWriter {
  const options = resolveLoggerOptions(given, door);
  const writer = new Writer(format, options);
  const excluded = options.controls?.excluded;
  return {
    options,
    log: writer.log,
    arrived: writer.arrived,
    excluded: excluded ?? included,
    excludes: excluded !== undefined,
    needs: writer.needs,
    callsApplication: writer.callsApplication,
    callbacks: options.skip !== undefined || options.controls?.level !== undefined,
  };
}

/**
 * One logger's writing, its parts resolved at creation. Per request, `log` takes a line
 * context, and the line is judged (controls, `skip`), made (the format) and put out (stream,
 * OpenTelemetry record), each step a method below; nothing is allocated beyond the line.
 */
class Writer {
  readonly needs: Needs;
  readonly callsApplication: () => boolean;
  private readonly options: LoggerOptions;
  /** The format made for this logger's redaction lists and stream. */
  private readonly formatLine: Format;
  /** The `start` option's format; undefined when off. */
  private readonly arrivalFormat: Format | undefined;
  /** Whether the line is made: to be written, or as the body of a record (a text format's). */
  private readonly makesLine: boolean;
  /** Where lines go (buffered with `buffer`); undefined when only records are emitted. */
  private readonly stream: LogStream | undefined;
  private readonly otel: OtelOutput | undefined;
  /** The `metrics` option's recorder; undefined when off. */
  private readonly metrics: HttpMetrics | undefined;
  private readonly tokens: ReturnType<typeof tokensFor>;
  private readonly lines: LineSlot;
  private readonly warn = new Warnings();

  constructor(format: unknown, options: LoggerOptions) {
    this.options = options;
    const { stream: target, redact, otel, body, controls } = options;
    // A JSON format is made for this logger's redaction lists and stream (objects for an
    // object-mode stream); format strings and functions get tokens that follow the same lists.
    const objectMode = (target as { writableObjectMode?: unknown })?.writableObjectMode === true;
    const resolved = resolveFormat(format);
    const bodyText = bodyReader(body, resolved, otel);
    const jsonLines = isJsonFormat(resolved);
    // A JSON line carries the body fields and the controls' fields as its last fields.
    const added =
      jsonLines && (bodyText !== undefined || controls !== undefined)
        ? { body: bodyText, ecs: isEcsFormat(resolved), controls: controls !== undefined }
        : undefined;
    this.formatLine = formatForLogger(resolved, redact, objectMode, added);
    this.otel = resolveOtel(otel, resolved, redact, bodyText);
    this.metrics = options.metrics;
    this.makesLine = target !== undefined || !jsonLines;
    this.tokens = tokensFor(redact);
    this.arrivalFormat = arrivalFormatOf(options.start, resolved, redact, objectMode, target);
    this.needs = needsOf(this.formatLine, this.otel, this.arrivalFormat, controls, this.metrics);
    this.callsApplication = applicationTokensWatcher(this.formatLine, this.arrivalFormat);
    if (target !== undefined) guardStreamErrors(target);
    if (options.bufferMs !== undefined) warnBufferDeprecated();
    this.stream =
      options.bufferMs === undefined || target === undefined
        ? target
        : bufferedStream(target, options.bufferMs, (err) => this.warn.write(err));
    this.lines = new LineSlot(options.verbatim);
  }

  /** Writes the line of an exchange whose response is done (a field: doors pass it on). */
  readonly log = (exchange: Exchange): void => {
    // Tokens find the line, and its exchange, while it is made (see core/line.ts).
    const line = this.lines.take(exchange);
    const previous = enterLine(line);
    try {
      // Every request counts, whatever decides about its line (skip, controls, sampling); the
      // duration it reads is then the line's (core/timing.ts `lineMs`).
      if (this.metrics !== undefined) this.metrics.done(exchange);
      if (this.options.controls === undefined) this.writeLine(exchange);
      else this.writeControlled(exchange, line, this.options.controls);
    } finally {
      leaveLine(previous);
      this.lines.giveBack(line);
    }
  };

  /** See `LineWriter.arrived`. */
  readonly arrived = <D>(exchange: Exchange, door: D, line: (door: D) => void): boolean => {
    if (this.metrics !== undefined) this.metrics.arrived(exchange);
    if (this.options.immediate) {
      line(door);
      return true;
    }
    if (this.arrivalFormat !== undefined) this.logArrival(exchange, this.arrivalFormat);
    return false;
  };

  private skipped(req: LogRequest, res: LogResponse): boolean {
    const skip = this.options.skip;
    if (skip === undefined) return false;
    try {
      return Boolean(skip(req, res));
    } catch (err) {
      this.warn.skip(err);
      return false;
    }
  }

  private write(out: LogStream, line: unknown): void {
    try {
      const result =
        out.writableObjectMode && typeof line === 'object'
          ? (out as { write(chunk: unknown): unknown }).write(line)
          : // biome-ignore lint/style/useTemplate: `+` keeps morgan's exact conversion of non-strings
            out.write(line + '\n');
      catchAsyncWrite(result, this.warn.write);
    } catch (err) {
      this.warn.write(err);
    }
  }

  /**
   * The arrival line (`start`): made when the request comes, under the request id both lines
   * carry. A request without one (no requestId middleware or option before the logger) is
   * given a new UUID as `req.id`, so the completion line, and the application, read the same.
   * `skip` is asked then as well, with the response not begun.
   */
  private logArrival(exchange: Exchange, format: Format): void {
    const req = exchange.req as { id?: unknown };
    if (req.id === undefined || req.id === null || req.id === '') req.id = newRequestId();
    // Errors' messages are the safe ones on an arrival line, whatever `errorMessage` says.
    const previous = enterLine(new Line(exchange, false));
    try {
      if (this.skipped(exchange.req, exchange.res)) return;
      let line: unknown;
      try {
        line = format(this.tokens, exchange.req, exchange.res);
      } catch (err) {
        // As for the completion line: warned once, and no line (`line` stays undefined).
        this.warn.format(err);
      }
      if (line !== undefined && line !== null) this.write(this.stream as LogStream, line);
    } finally {
      leaveLine(previous);
    }
  }

  private writeLine(exchange: Exchange): void {
    if (this.skipped(exchange.req, exchange.res)) return;
    this.writeOut(exchange);
  }

  /** The level the `level` function gives, or undefined (the default) when it fails. */
  private levelFor(req: LogRequest, res: LogResponse, c: Controls): string | undefined {
    const level = c.level;
    if (level === undefined) return undefined;
    try {
      const given = level(req, res);
      if (typeof given === 'string' && LEVELS.has(given)) return given;
      this.warn.level(new TypeError(`not a level: ${String(given)}`));
    } catch (err) {
      this.warn.level(err);
    }
    return undefined;
  }

  /**
   * The line of a logger with production controls: left out by status, by `skip`, by sampling
   * or a `silent` level, in that order, before any token is computed; else written with its
   * level, `slow` and `sampling.rate`.
   */
  private writeControlled(exchange: Exchange, line: Line, c: Controls): void {
    const { req, res } = exchange;
    const status = statusCodeOf(res);
    if (c.excludedStatus !== undefined && status !== undefined && c.excludedStatus(status)) return;
    if (this.skipped(req, res)) return;
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
    let level = this.levelFor(req, res, c);
    // A slow request is always logged: `silent` gives way to the raised level.
    if (level === 'silent' && !slow) return;
    if (slow)
      level = raisedForSlow(
        level === 'silent' ? defaultLevelOf(res) : (level ?? defaultLevelOf(res)),
      );
    line.level = level;
    line.slow = slow ? true : undefined;
    line.rate = rate;
    this.writeOut(exchange);
  }

  /** Makes the line and puts it out: to the stream, and as an OpenTelemetry record. */
  private writeOut(exchange: Exchange): void {
    const { req, res } = exchange;
    let line: unknown;
    if (this.makesLine) {
      try {
        line = this.formatLine(this.tokens, req, res);
      } catch (err) {
        this.warn.format(err);
        return;
      }
      if (line === undefined || line === null) return;
      if (this.stream !== undefined) this.write(this.stream, line);
    }
    this.otel?.emit(exchange, this.tokens, line);
  }
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
 * What a format's built-in tokens read, so that nothing else is recorded per request. A format
 * that may call the application's code records everything (see `applicationTokensWatcher`).
 */
function needsOf(
  format: FormatFn<LogRequest, LogResponse>,
  otel: OtelOutput | undefined,
  arrival: FormatFn<LogRequest, LogResponse> | undefined,
  controls: Controls | undefined,
  metrics: HttpMetrics | undefined,
): Needs {
  const names = [
    ...(tokenNamesOf(format) ?? []),
    // `metrics` reads the line's duration, sizes and failure.
    ...(metrics === undefined ? [] : METRICS_TOKENS),
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
    route: has('route'),
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
  /**
   * Ask the framework for the route it matched (`:route`, `http.route`): a door that must
   * read it from the framework's own objects does so only then.
   */
  readonly route: boolean;
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
