// OpenTelemetry's HTTP server metrics (option `metrics`), recorded from the measurement the line
// is made of: the writer calls `arrived` when a request reaches the logger and `done` while the
// line's context is entered (before `skip`, sampling or any control decides about the line), so
// the duration is the line's own (`lineMs`, read once per line: `:total-time` and the JSON
// durations read the same value), and the sizes are the line's.
//
// Instruments and attributes as OpenTelemetry's HTTP semantic conventions name them (v1.x):
//   http.server.request.duration    histogram, s, the conventions' bucket boundaries (stable)
//   http.server.active_requests     up-down counter, {request}: method and scheme only
//   http.server.request.body.size   histogram, By: the request's Content-Length (development)
//   http.server.response.body.size  histogram, By: the line's body size (development)
// Attributes: `http.request.method` (a known method as sent, else `_OTHER`), `url.scheme`,
// `network.protocol.version`, `http.route` when the framework knows it, `http.response.status_code`
// when a status was sent, `error.type` when the request failed. Every value is drawn from a
// small set (a method folded, a scheme, a version, a status, a route template the application
// wrote, an error class): no path, query or header value is ever an attribute, so a client
// cannot make one series per request.
//
// `metrics: true` reads the global MeterProvider of `@opentelemetry/api` (an optional peer,
// required only then). The API hands out no proxy meter: a meter taken before the application
// registers its SDK would record nothing, ever. So the provider is asked for per request (a
// property read) and the instruments made again when it changed. An SDK that throws is
// reported once and never fails the request.

import { failureOf } from '../../failures.js';
import { reportedSize } from '../../http-facts.js';
import { loadOptionalPeer } from '../../optional-peer.js';
import { bodyBytes, wholeBodyHandedOn } from '../core/body-bytes.js';
import type { Exchange } from '../core/exchange.js';
import { errorTypeOf } from '../core/failure.js';
import { isOff } from '../core/option-off.js';
import { elapsedMs, lineMs, statusCodeOf } from '../core/timing.js';
import { exchangeRoute } from '../core/url-parts.js';
import { onceWarning } from '../core/warnings.js';
import { otelVersion } from '../json/presets.js';
import type { LogRequest, LogResponse } from '../types.js';

type Attributes = Record<string, string | number>;

/** The parts of OpenTelemetry's instruments used here. */
interface Histogram {
  record(value: number, attributes?: Attributes): void;
}
interface UpDownCounter {
  add(value: number, attributes?: Attributes): void;
}
/** The part of an OpenTelemetry `Meter` used here. */
interface Meter {
  createHistogram(name: string, options?: object): Histogram;
  createUpDownCounter(name: string, options?: object): UpDownCounter;
}
interface MeterProvider {
  getMeter(name: string): Meter;
}

/** The instrumentation scope, as for the log records. */
const SCOPE = 'httpware';

/** `@opentelemetry/api`'s ValueType (INT 0, DOUBLE 1), without requiring the API for a meter given. */
const INT = 0;
const DOUBLE = 1;

/**
 * The conventions' advice for `http.server.request.duration`, in seconds (what
 * @opentelemetry/instrumentation-http gives too).
 */
export const DURATION_BOUNDARIES: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * The methods the conventions know (RFC 9110's, PATCH of RFC 5789, and QUERY as
 * instrumentation-http knows it). Matched exactly: method names are case-sensitive, and
 * anything else is `_OTHER`, so a client sending made-up methods makes one series, not many.
 */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'QUERY',
  'TRACE',
]);

/**
 * The most distinct `http.route` values one logger's metrics carry. A route is a template the
 * application wrote, so an application has a few hundred at most; but under Express it is
 * `req.baseUrl` (the text that matched a router's mount path) before the route's template, so
 * a router mounted on a path with parameters (`/orgs/:org`), or matched in another letter case,
 * makes one value per value the client sent. Past this many, a route not seen before is left
 * out of the attributes (its requests still counted), with one warning.
 */
export const MAX_ROUTES = 1000;

/** `error.type` of a request whose response did not finish (the client went away first). */
export const ABORTED = 'request.aborted';

/** One set of instruments, made from one meter. */
class Instruments {
  readonly duration: Histogram;
  readonly active: UpDownCounter;
  readonly requestSize: Histogram;
  readonly responseSize: Histogram;

  constructor(meter: Meter) {
    this.duration = meter.createHistogram('http.server.request.duration', {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      valueType: DOUBLE,
      advice: { explicitBucketBoundaries: DURATION_BOUNDARIES },
    });
    this.active = meter.createUpDownCounter('http.server.active_requests', {
      description: 'Number of active HTTP server requests.',
      unit: '{request}',
      valueType: INT,
    });
    this.requestSize = meter.createHistogram('http.server.request.body.size', {
      description: 'Size of HTTP server request bodies.',
      unit: 'By',
      valueType: INT,
    });
    this.responseSize = meter.createHistogram('http.server.response.body.size', {
      description: 'Size of HTTP server response bodies.',
      unit: 'By',
      valueType: INT,
    });
  }
}

/** One logger's metrics. */
export class HttpMetrics {
  private readonly instrumentsNow: () => Instruments;
  private readonly failed = onceWarning(
    'HTTPWARE_LOGGER_METRICS',
    'logger: the OpenTelemetry meter threw; the measurement is lost',
  );
  private readonly routes = new Set<string>();
  private readonly tooManyRoutes = onceWarning(
    'HTTPWARE_LOGGER_METRICS_ROUTES',
    `logger: metrics met more than ${MAX_ROUTES} routes; new ones are recorded without http.route (under Express, a router mounted on a path with parameters makes one route per value)`,
  );

  constructor(instruments: () => Instruments) {
    this.instrumentsNow = instruments;
  }

  /** A request reached the logger: one more active request. */
  arrived(exchange: Exchange): void {
    try {
      const instruments = this.instrumentsNow();
      const attributes = arrivalAttributes(exchange.req);
      instruments.active.add(1, attributes);
      // Counted up: it is counted down, in the same series, when it is done.
      exchange.metrics = { instruments, attributes };
    } catch (err) {
      this.failed(err);
    }
  }

  /** `route`, unless it would be a route past MAX_ROUTES. */
  private readonly knownRoute = (route: string): string | undefined => {
    if (this.routes.has(route)) return route;
    if (this.routes.size < MAX_ROUTES) {
      this.routes.add(route);
      return route;
    }
    this.tooManyRoutes();
    return undefined;
  };

  /** The request is done (its line's context entered): its measurements, one active less. */
  done(exchange: Exchange): void {
    const arrival = exchange.metrics;
    if (arrival === undefined) return;
    exchange.metrics = undefined;
    const instruments = arrival.instruments as Instruments;
    const counted = arrival.attributes;
    try {
      instruments.active.add(-1, counted);
      const attributes = outcomeAttributes(exchange, counted, this.knownRoute);
      const ms = lineMs(exchange.req, exchange.res) ?? elapsedMs(exchange);
      if (ms !== undefined) instruments.duration.record(ms / 1000, attributes);
      const requestSize = requestBodySize(exchange.req);
      if (requestSize !== undefined) instruments.requestSize.record(requestSize, attributes);
      const responseSize = bodyBytes(exchange.req, exchange.res);
      if (responseSize !== undefined) instruments.responseSize.record(responseSize, attributes);
    } catch (err) {
      this.failed(err);
    }
  }
}

/** The option `metrics` resolved: undefined when off; a `TypeError` when it cannot work. */
export function resolveMetrics(option: unknown): HttpMetrics | undefined {
  if (isOff(option)) return undefined;
  if (option === true) return new HttpMetrics(globalInstruments());
  const meter = (option as { meter?: unknown } | null)?.meter as Meter | undefined;
  if (
    typeof option !== 'object' ||
    typeof meter?.createHistogram !== 'function' ||
    typeof meter.createUpDownCounter !== 'function'
  ) {
    throw new TypeError(
      'option metrics must be true (the global MeterProvider) or { meter } (an OpenTelemetry Meter)',
    );
  }
  const instruments = new Instruments(meter);
  return new HttpMetrics(() => instruments);
}

/** The instruments of the global MeterProvider, made again whenever it is replaced. */
function globalInstruments(): () => Instruments {
  let api: { metrics: { getMeterProvider(): MeterProvider } };
  try {
    api = loadOptionalPeer('@opentelemetry/api') as typeof api;
  } catch {
    throw new TypeError(
      'option metrics: true needs @opentelemetry/api (npm install @opentelemetry/api), or pass metrics: { meter }',
    );
  }
  let provider: MeterProvider | undefined;
  let instruments: Instruments | undefined;
  return () => {
    const now = api.metrics.getMeterProvider();
    if (now !== provider || instruments === undefined) {
      provider = now;
      instruments = new Instruments(now.getMeter(SCOPE));
    }
    return instruments;
  };
}

/** `http.request.method`: a known method as sent, anything else `_OTHER`. */
export function methodAttribute(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/**
 * `url.scheme`: `https` when the connection is TLS (or the framework says the request is
 * secure: Express's `req.secure`, which follows its `trust proxy`; the fetch door's, from the
 * URL the runtime built); else `http`. Two values only: never the text of a header.
 */
function schemeOf(req: LogRequest): string {
  if ((req as { secure?: unknown }).secure === true) return 'https';
  return (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true
    ? 'https'
    : 'http';
}

/** What is known on arrival, and stays the same series to the end: method and scheme. */
function arrivalAttributes(req: LogRequest): Attributes {
  return {
    'http.request.method': methodAttribute(req.method),
    'url.scheme': schemeOf(req),
  };
}

/** The attributes of a finished request: the arrival's, the protocol, route, status, error. */
function outcomeAttributes(
  exchange: Exchange,
  counted: Readonly<Attributes>,
  knownRoute: (route: string) => string | undefined,
): Attributes {
  const { req, res } = exchange;
  // One literal, one shape for every request (a spread of `counted` cost 1.4 us a request).
  const attributes: Attributes = {
    'http.request.method': counted['http.request.method'] as string,
    'url.scheme': counted['url.scheme'] as string,
  };
  const version = protocolVersion(req);
  if (version !== undefined) attributes['network.protocol.version'] = version;
  const template = exchangeRoute(exchange);
  const route = template === undefined ? undefined : knownRoute(template);
  if (route !== undefined) attributes['http.route'] = route;
  const status = statusCodeOf(res);
  if (status !== undefined) attributes['http.response.status_code'] = status;
  const error = errorTypeAttribute(req, res, status);
  if (error !== undefined) attributes['error.type'] = error;
  return attributes;
}

/** The versions `network.protocol.version` takes: HTTP's, as the conventions write them. */
const PROTOCOL_VERSIONS: ReadonlySet<string> = new Set(['1.0', '1.1', '2', '3']);

/**
 * `network.protocol.version`, HTTP/1.1's without making its text anew. The version is what the
 * request line claimed (node:http takes `HTTP/2.0` or `HTTP/0.9` over an HTTP/1 connection):
 * one that is not HTTP's is left out, so a client cannot add series of its own.
 */
function protocolVersion(req: LogRequest): string | undefined {
  const { httpVersionMajor: major, httpVersionMinor: minor } = req;
  if (major === 1 && minor === 1) return '1.1';
  const version = otelVersion(major, minor);
  return PROTOCOL_VERSIONS.has(version) ? version : undefined;
}

/**
 * `error.type`: for a server, a 5xx is a failure and a 4xx is the client's (the conventions'
 * span status rules). A 5xx is named by the error recorded for it (`logger.recordError`, a
 * parser's) when there is one, else by its status code; a response that did not finish (the
 * client went away, the socket was destroyed) by the error recorded, else `request.aborted`.
 */
function errorTypeAttribute(
  req: LogRequest,
  res: LogResponse,
  status: number | undefined,
): string | undefined {
  const finished = res.writableEnded && status !== undefined && wholeBodyHandedOn(res);
  if (finished && status < 500) return undefined;
  const failure = failureOf(req);
  if (failure !== undefined) return errorTypeOf(failure);
  return finished ? String(status) : ABORTED;
}

/**
 * `http.server.request.body.size`: the request's Content-Length; 0 for an HTTP/1.x request
 * with neither Content-Length nor Transfer-Encoding (RFC 9112, section 6.3: it has no body);
 * unknown (not recorded) for a chunked one or an HTTP/2 one without a length. A Web Request
 * carries no such rule (a runtime may hand over a body with neither header, an application's
 * `new Request` always does): there only a GET or HEAD, which cannot have a body, is 0.
 */
function requestBodySize(req: LogRequest): number | undefined {
  const headers = req.headers;
  const length = headers['content-length'];
  if (typeof length === 'string') return reportedSize(length);
  if (req.httpVersionMajor >= 2 || headers['transfer-encoding'] !== undefined) return undefined;
  if ((req as { request?: unknown }).request === undefined) return 0;
  return req.method === 'GET' || req.method === 'HEAD' ? 0 : undefined;
}
