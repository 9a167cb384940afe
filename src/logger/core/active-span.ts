// The OpenTelemetry span a request was handled in, so that a log line carries the ids a
// collector joins it to its trace by (trace id and span id of the server span).
//
// `@opentelemetry/api` is an optional peer dependency: nothing requires it, and it is never
// loaded in a process that does not run OpenTelemetry. Every copy of the API keeps its state
// (the registered context manager and tracer provider) on one global, keyed by the API's major
// version, so that copies share it. That global exists only once an OpenTelemetry API was
// loaded in the process; until then a request costs one property read here. When it exists,
// the API is required once, from where this package is installed, and its public functions
// read the active context. If it cannot be required (the application's API is bundled or
// installed out of this package's reach), the lines go on without span ids, and a warning says
// why, once.
//
// The context is captured when the middleware is called, in the application's async context
// (the server span's, under @opentelemetry/instrumentation-http); the line is written from the
// response's 'close', outside it.

import { loadOptionalPeer } from '../../optional-peer.js';
import { onceWarning } from './warnings.js';

/** The part of `@opentelemetry/api` (1.x) read here. */
interface OtelApi {
  readonly context: { active(): unknown };
  readonly trace: {
    getSpanContext(context: unknown): SpanContext | undefined;
    isSpanContextValid(spanContext: SpanContext): boolean;
  };
}

/** The ids of a span (OpenTelemetry's `SpanContext`). */
export interface SpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}

const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

const unavailable = onceWarning(
  'HTTPWARE_LOGGER_OTEL_API',
  'logger: OpenTelemetry runs in this process but @opentelemetry/api cannot be loaded from httpware; lines carry no span ids (install @opentelemetry/api beside httpware)',
);

/** The API once loaded; null when it could not be; undefined before it was needed. */
let api: OtelApi | null | undefined;

function loadApi(): OtelApi | null {
  try {
    return loadOptionalPeer('@opentelemetry/api') as OtelApi;
  } catch (err) {
    unavailable(err);
    return null;
  }
}

/**
 * The active OpenTelemetry context, or undefined when no OpenTelemetry API was ever loaded in
 * the process (then nothing is loaded here either).
 */
export function captureContext(): unknown {
  if (api === undefined) {
    if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
    api = loadApi();
  }
  return api === null ? undefined : api.context.active();
}

/** The valid span ids in a captured context, if any. */
export function spanContextIn(context: unknown): SpanContext | undefined {
  if (context === undefined || api == null) return undefined;
  const spanContext = api.trace.getSpanContext(context);
  return spanContext !== undefined && api.trace.isSpanContextValid(spanContext)
    ? spanContext
    : undefined;
}

/** `00` to `ff`: a line's trace flags read from a table, not formatted per line. */
const FLAGS_TEXT: readonly string[] = Array.from({ length: 256 }, (_, n) =>
  n.toString(16).padStart(2, '0'),
);

/** Trace flags as the two lowercase hex digits of `traceparent` (`01`: sampled). */
export function traceFlagsText(flags: number): string {
  return FLAGS_TEXT[flags & 0xff] as string;
}
