// OpenTelemetry log records, the logger's third output (option `otel`): each request becomes a
// `LogRecord` emitted through an OpenTelemetry `Logger`, which the application's SDK processes
// and exports as it does every other record (batching, OTLP, resource attributes).
//   body        the line's message: the `json` format's `msg` for a JSON format
//               (`GET /users 200 3.1 ms`), the line itself for a text format
//   attributes  the `json` format's fields under their names (OpenTelemetry's HTTP semantic
//               conventions: `http.request.method`, `url.path`, `http.response.status_code`...),
//               less those the record has as its own parts: time, level, msg and the ids
//   severity    from the status, as the `json` format's level: 5xx ERROR, 4xx WARN, else INFO;
//               the `level` option's (and `slow`'s) when given
//   timestamp   the line's time, at the end of the exchange (the `json` format's `time`): a
//               record describes a finished request (the span has its start); the record and
//               the line read one clock and one duration, so they agree to the millisecond
//   context     the one captured when the request reached the logger, so the SDK attaches the
//               trace id, span id and flags of the span the request was handled in
// Every string of a record, body and attributes, holds no control character: each is written
// as a text line writes it (`\n`, `\u0085`), since exporters print records to terminals and
// line-oriented files too (the console exporter, a collector's file exporter).
// `otel: true` takes the global LoggerProvider through `@opentelemetry/api-logs` (an optional
// peer dependency, required only then); `otel: { loggerProvider }` takes the one given. Records
// emitted before the application registers its provider reach it once it does (api-logs hands
// out a proxy logger). An SDK that throws is reported once and never fails the request; an
// exporter's own failures (a refused or hanging collector) stay inside the SDK's processors.

import { loadOptionalPeer } from '../../optional-peer.js';
import { escapeControls } from '../core/escape.js';
import type { Exchange } from '../core/exchange.js';
import { isOff } from '../core/option-off.js';
import type { RedactPolicy } from '../core/redact.js';
import { onceWarning } from '../core/warnings.js';
import { type AddedFields, addFields } from '../json/added-fields.js';
import { lineTime } from '../json/builtins.js';
import { isJsonFormat, lineFields } from '../json/format.js';
import { jsonPresets } from '../json/presets.js';
import { tokenNamesOf } from '../text/compile.js';
import type { FormatFn, LogRequest, LogResponse, Tokens } from '../types.js';

/** The part of an OpenTelemetry `Logger` used here. */
interface OtelLogger {
  emit(record: LogRecord): void;
}

/** The part of an OpenTelemetry `LoggerProvider` used here. */
interface LoggerProvider {
  getLogger(name: string, version?: string): OtelLogger;
}

/** What is emitted: a subset of `@opentelemetry/api-logs`' `LogRecord`. */
interface LogRecord {
  readonly timestamp: number;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly body: string;
  readonly attributes: Record<string, string | number | boolean>;
  readonly context: unknown;
}

/** The instrumentation scope the records are emitted under. */
const SCOPE = 'httpware';

/** OpenTelemetry's severity numbers (log data model) for the `json` format's levels. */
const SEVERITY = {
  trace: { number: 1, text: 'TRACE' },
  debug: { number: 5, text: 'DEBUG' },
  info: { number: 9, text: 'INFO' },
  warn: { number: 13, text: 'WARN' },
  error: { number: 17, text: 'ERROR' },
  fatal: { number: 21, text: 'FATAL' },
} as const;

/** Fields of the `json` line that are parts of the record itself, not attributes. */
const RECORD_PARTS = new Set(['time', 'level', 'msg', 'trace_id', 'span_id', 'trace_flags']);

const LOGS_API_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');

/** The `body` option's JSON text of a request's body fields (core/body-fields.ts). */
type BodyFieldsReader = (req: LogRequest) => string | undefined;

/** One logger's record output. */
export interface OtelOutput {
  /** The tokens the records read (the `json` format's), so the logger records what they need. */
  readonly tokenNames: readonly string[];
  /**
   * Emits the record of the exchange whose line is being made; `line` is that line when the
   * logger made one.
   */
  emit(exchange: Exchange, tokens: Tokens, line: unknown): void;
}

/** Whether the `otel` option is off: absent, `null` or `false`. */
export function otelOff(option: unknown): boolean {
  return isOff(option);
}

/** The `otel` option resolved: undefined when off; a `TypeError` when it cannot work. */
export function resolveOtel(
  option: unknown,
  format: FormatFn<LogRequest, LogResponse>,
  policy: RedactPolicy,
  bodyFields?: BodyFieldsReader,
): OtelOutput | undefined {
  if (otelOff(option)) return undefined;
  if (option === true) return recordsThrough(globalLogger(), format, policy, true, bodyFields);
  const provider = (option as { loggerProvider?: unknown } | null)?.loggerProvider;
  if (typeof option !== 'object' || typeof (provider as LoggerProvider)?.getLogger !== 'function') {
    throw new TypeError(
      'option otel must be true (the global LoggerProvider) or { loggerProvider } (an OpenTelemetry LoggerProvider)',
    );
  }
  return recordsThrough(
    (provider as LoggerProvider).getLogger(SCOPE),
    format,
    policy,
    false,
    bodyFields,
  );
}

function globalLogger(): OtelLogger {
  let api: { logs: LoggerProvider };
  try {
    api = loadOptionalPeer('@opentelemetry/api-logs') as { logs: LoggerProvider };
  } catch {
    throw new TypeError(
      'option otel: true needs @opentelemetry/api-logs (npm install @opentelemetry/api-logs), or pass otel: { loggerProvider }',
    );
  }
  return api.logs.getLogger(SCOPE);
}

function recordsThrough(
  logger: OtelLogger,
  format: FormatFn<LogRequest, LogResponse>,
  policy: RedactPolicy,
  global: boolean,
  bodyFields: BodyFieldsReader | undefined,
): OtelOutput {
  // The `json` format's fields as an object (what an object-mode stream gets), for this
  // logger's redaction lists.
  const fieldsOf = lineFields(jsonPresets.json, policy);
  const lineIsBody = !isJsonFormat(format);
  const emitFailed = onceWarning(
    'HTTPWARE_LOGGER_OTEL',
    'logger: the OpenTelemetry logger threw on emit; the record is lost',
  );
  const noProvider = onceWarning(
    'HTTPWARE_LOGGER_OTEL_PROVIDER',
    'logger: option otel is on but no global OpenTelemetry LoggerProvider is registered; records are dropped until one is',
  );
  let checked = !global;
  const added: AddedFields = { body: bodyFields, ecs: false, controls: true };
  return {
    tokenNames: tokenNamesOf(fieldsOf) ?? [],
    emit(exchange, tokens, line) {
      if (!checked) {
        checked = true;
        if ((globalThis as Record<symbol, unknown>)[LOGS_API_GLOBAL] === undefined) noProvider();
      }
      try {
        const fields = fieldsOf(tokens, exchange.req, exchange.res) as Record<string, unknown>;
        const severity = SEVERITY[fields.level as keyof typeof SEVERITY] ?? SEVERITY.info;
        const attributes: Record<string, string | number | boolean> = {};
        for (const key in fields) {
          const value = fields[key];
          if (RECORD_PARTS.has(key) || value === undefined || value === null) continue;
          attributes[key] =
            typeof value === 'string' ? escapeControls(value) : (value as number | boolean);
        }
        // The fields the `json` line adds, the body fields as their JSON text: attribute
        // values are flat.
        addFields(added, exchange.req, attributes, true);
        logger.emit({
          timestamp: lineTime(),
          severityNumber: severity.number,
          severityText: severity.text,
          body: escapeControls(lineIsBody && typeof line === 'string' ? line : String(fields.msg)),
          attributes,
          context: exchange.context,
        });
      } catch (err) {
        emitFailed(err);
      }
    },
  };
}
