// A logger's options resolved once, when the logger is created, into one frozen object that
// every door and the writer read (as src/parsers/options.ts does for the parsers): a bad option
// is a TypeError then, never per request, and the caller's object is never kept or changed.
// The options only one door has (`fetchLogger`'s `remoteAddress` and `requestId`, its refusal
// of `body`) are checked here too, for that door only: the Node middleware ignores them.

import { type BodyFields, resolveBodyFields } from './core/body-fields.js';
import { bufferInterval } from './core/buffer.js';
import { type Controls, resolveControls } from './core/controls.js';
import { isOff, isUnset } from './core/option-off.js';
import { type ProxyResolver, proxyResolver } from './core/proxy.js';
import { DEFAULT_POLICY, type RedactPolicy, resolveRedact } from './core/redact.js';
import { type ResolvedRequestIdOptions, resolveRequestIdOptions } from './core/request-id.js';
import { onceWarning } from './core/warnings.js';
import { colourAllowed, devColoured, devPlain, findFormat } from './formats.js';
import { type HttpMetrics, resolveMetrics } from './otel/metrics.js';
import { otelOff } from './otel/records.js';
import { compile, withoutColour } from './text/compile.js';
import type { FormatFn, LogRequest, LogResponse, LogStream } from './types.js';

/** `fetchLogger`'s `remoteAddress`: the client's address from the handler's arguments. */
export type AddressOption = (request: Request, ...rest: unknown[]) => string | null | undefined;

/** What a door tells the resolution: where lines go by default, and whether it is the Web one. */
export interface DoorDefaults {
  readonly defaultStream: () => LogStream;
  /** `fetchLogger`: its own options are read (`remoteAddress`, `requestId`), `body` refused. */
  readonly web: boolean;
}

/** A logger's options, resolved once: every field set, the object frozen. */
export interface LoggerOptions {
  readonly immediate: boolean;
  readonly skip: ((req: LogRequest, res: LogResponse) => unknown) | undefined;
  /** Where lines go; undefined when only OpenTelemetry records are emitted (`otel`, no stream). */
  readonly stream: LogStream | undefined;
  /** The `otel` option as given (resolved with the format, in writer.ts). */
  readonly otel: unknown;
  /** Flush interval of morgan's deprecated `buffer` option, or undefined (no buffering). */
  readonly bufferMs: number | undefined;
  /** What the logger's lines mask (the `redact` option). */
  readonly redact: RedactPolicy;
  /** `errorMessage: 'verbatim'`: every error's own message, even one that may quote a body. */
  readonly verbatim: boolean;
  /** The client's address behind trusted proxies (`trustProxy`); undefined when off. */
  readonly proxy: ProxyResolver | undefined;
  /** `start`: the arrival line's format as given (`true`: the default one); undefined when off. */
  readonly start: unknown;
  /** `body`: the request body fields of JSON lines and records; undefined when off. */
  readonly body: BodyFields | undefined;
  /** `exclude`, `sample`, `slow` and `level`; undefined when none is given. */
  readonly controls: Controls | undefined;
  /** `metrics`: OpenTelemetry's HTTP server metrics (otel/metrics.ts); undefined when off. */
  readonly metrics: HttpMetrics | undefined;
  /** `fetchLogger`'s `remoteAddress`; undefined when not given (and on Node). */
  readonly remoteAddress: AddressOption | undefined;
  /** `fetchLogger`'s `requestId`, resolved; undefined when off (and on Node). */
  readonly requestId: ResolvedRequestIdOptions | undefined;
}

const proxyFailed = onceWarning(
  'HTTPWARE_LOGGER_PROXY',
  'logger: the trustProxy function threw; that hop is not trusted',
);

/** The options of a logger: `options` as given to the door's factory, checked and resolved. */
export function resolveLoggerOptions(options: unknown, door: DoorDefaults): LoggerOptions {
  // The Web parsers hand the body to the handler and keep nothing on the Request to read.
  if (door.web && !isOff((options as { body?: unknown } | null | undefined)?.body)) {
    throw new TypeError(
      "option body is not available on fetchLogger: the parsed body is the handler's alone",
    );
  }
  const common = commonOptions(options, door.defaultStream);
  if (!door.web) return Object.freeze(common);
  return Object.freeze({ ...common, ...webOptions(options) });
}

/** The options every door reads. */
function commonOptions(options: unknown, defaultStream: () => LogStream): LoggerOptions {
  if (isUnset(options)) return defaultOptions(defaultStream);
  if (typeof options !== 'object') {
    throw new TypeError('argument options must be an object');
  }
  const given = options as Record<string, unknown>;
  const { immediate, skip, stream, buffer, redact, otel, errorMessage } = given;
  const { trustProxy, forwardedHeader, start, body, metrics } = given;
  checkCommonOptions({ skip, stream, errorMessage, start, immediate, metrics });
  const policy = resolveRedact(redact);
  return {
    // Truthiness, as in morgan: `immediate: 1` or `immediate: 'yes'` turns it on.
    immediate: Boolean(immediate),
    controls: resolveControls(given, Boolean(immediate)),
    // Absent, `null` and (for skip and start) `false` all mean "not set" (core/option-off.ts).
    skip: isOff(skip) ? undefined : (skip as LoggerOptions['skip']),
    // Resolved now, as morgan does: replacing process.stdout later does not move the logs.
    // With OpenTelemetry records and no stream, the records are the only output.
    stream: !isUnset(stream) ? (stream as LogStream) : otelOff(otel) ? defaultStream() : undefined,
    otel,
    bufferMs: bufferInterval(buffer),
    redact: policy,
    verbatim: errorMessage === 'verbatim',
    proxy: proxyResolver(trustProxy, forwardedHeader, proxyFailed),
    start: isOff(start) ? undefined : start,
    body: resolveBodyFields(body, policy),
    metrics: resolveMetrics(metrics),
    remoteAddress: undefined,
    requestId: undefined,
  };
}

/** The options of a logger given none. */
function defaultOptions(defaultStream: () => LogStream): LoggerOptions {
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
    metrics: undefined,
    remoteAddress: undefined,
    requestId: undefined,
  };
}

/** The checks of the options every door reads that their resolvers do not make. */
function checkCommonOptions(given: Record<string, unknown>): void {
  const { skip, stream, errorMessage, start, immediate, metrics } = given;
  if (!isOff(skip) && typeof skip !== 'function') {
    throw new TypeError('option skip must be a function');
  }
  if (
    !isUnset(stream) &&
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
  // `immediate` writes its line before any response exists: there would be nothing to measure.
  if (!isOff(metrics) && immediate) {
    throw new TypeError('options metrics and immediate cannot be used together');
  }
}

/** `fetchLogger`'s own options. */
function webOptions(options: unknown): Pick<LoggerOptions, 'remoteAddress' | 'requestId'> {
  const given = (options as { remoteAddress?: unknown } | null | undefined)?.remoteAddress;
  if (!isUnset(given) && typeof given !== 'function') {
    throw new TypeError('option remoteAddress must be a function');
  }
  const idOption = (options as { requestId?: unknown } | null | undefined)?.requestId;
  return {
    remoteAddress: typeof given === 'function' ? (given as AddressOption) : undefined,
    requestId: isOff(idOption)
      ? undefined
      : resolveRequestIdOptions(idOption === true ? undefined : idOption),
  };
}

/** A logger's format (a name, a format string or a function), its colour decided now. */
export function resolveFormat(format: unknown): FormatFn<LogRequest, LogResponse> {
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
