// What one logger knows about one request and its response (an `Exchange`), kept off `req`
// and `res`: see timing.ts for why nothing is attached to them. A door makes one per request
// and fills it; tokens read it through the line being made (line.ts).

import type { LogRequest, LogResponse } from '../types.js';
import type { SpanContext } from './active-span.js';

/** What one response's body writes added up to. */
export interface BodyMeter {
  /** Whether the writes are counted: undefined until the head is out. */
  counting: boolean | undefined;
  /** Bytes written while counting. */
  bytes: number;
  /** Inside `end`, which over HTTP/2 writes its chunk through `this.write`: counted once. */
  ending: boolean;
  /**
   * The length the response announced, read once its head was out and the writes were not
   * to be counted (fixed from then on): the line need not read it again.
   */
  announced: unknown;
}

/** What the `metrics` option counted a request in progress under (../otel/metrics.ts). */
export interface MetricsArrival {
  /** The instruments it was counted with (the global provider may change meanwhile). */
  readonly instruments: unknown;
  /** The attributes of its `http.server.active_requests` series, counted down alike. */
  readonly attributes: Readonly<Record<string, string | number>>;
}

/**
 * What one logger knows about one request and its response. Every field is first assigned in
 * the constructor, in one order, with no class-field declarations: the parameter properties and
 * declared fields compiled to a definition of each field and then an assignment, which cost
 * about 90 instructions per request more (callgrind, `combined`).
 */
export class Exchange {
  declare readonly req: LogRequest;
  declare readonly res: LogResponse;
  /** Clock reading when the request reached this logger (NaN when nothing needs it). */
  declare readonly startedAt: number;
  /** `req.ip` or the socket's address on arrival (the socket may be gone at the end). */
  declare readonly remoteAddress: string | undefined;
  /**
   * Whether the head was already out when the request reached this logger: then, as for
   * morgan (whose on-headers never sees it), no time is known to the end either.
   */
  declare readonly sentBefore: boolean;
  /** The response's status code when the request reached the logger (200 unless set before). */
  declare readonly statusOnArrival: number;
  /** Whether the head was written (only the first `writeHead` is recorded). */
  declare headWritten: boolean;
  /** Clock reading when the head was about to be written (NaN when the format needs no time). */
  declare headAt: number;
  /** The headers argument given to `writeHead`, if any (object, pairs or flat list). */
  declare headers: unknown;
  /** Whether the connection closed before the application answered: see `lineAfterAbandon`. */
  declare abandoned: boolean;
  /** The OpenTelemetry context active when the request reached the logger (see active-span.ts). */
  declare context: unknown;
  /** The ids of the span in that context, once read: null when it has none. */
  declare span: SpanContext | null | undefined;
  /** The count of the body's bytes, for formats that read the body's size (body-bytes.ts). */
  declare meter: BodyMeter | undefined;
  /**
   * Clock reading when the exchange ended, when that was before its line: a fetch body never
   * delivered (fetch.ts) ends when its Response was handed on. NaN: it ends with its line.
   */
  declare endedAt: number;
  /**
   * The route template the framework matched (`/users/:id`), when the door learnt it from the
   * framework itself (Koa's router, Fastify, Hono, a fetch handler's `route`); undefined: the
   * request's own record is read (Express's `req.route`, see url-parts.ts `requestRoute`).
   */
  declare route: string | undefined;
  /** With `metrics`: the series it is counted active in, until its line; else undefined. */
  declare metrics: MetricsArrival | undefined;

  constructor(
    req: LogRequest,
    res: LogResponse,
    startedAt: number,
    remoteAddress: string | undefined,
    sentBefore = false,
  ) {
    this.req = req;
    this.res = res;
    this.startedAt = startedAt;
    this.remoteAddress = remoteAddress;
    this.sentBefore = sentBefore;
    this.statusOnArrival = res.statusCode;
    this.headWritten = false;
    this.headAt = Number.NaN;
    this.headers = undefined;
    this.abandoned = false;
    this.context = undefined;
    this.span = undefined;
    this.meter = undefined;
    this.endedAt = Number.NaN;
    this.route = undefined;
    this.metrics = undefined;
  }
}
