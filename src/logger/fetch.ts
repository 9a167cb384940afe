// The fetch door: `fetchLogger(format, options)` wraps a `(request, ...rest) => Response`
// handler (Bun, Deno, Cloudflare Workers, Next.js route handlers, srvx, Hono's `app.fetch`)
// and writes one line per request with the same formats, tokens, JSON fields, redaction and
// OpenTelemetry records as the Node middleware. The core reads the line model (`LogRequest`,
// `LogResponse` in types.ts); this file fills it from a Web `Request` and `Response`:
//   - on arrival, a `FetchRequest` view: method, path and query, a lower-case headers object
//     (made on first read), the client's address from what the runtime handed the handler;
//   - when the handler's Response comes, a `FetchResponse` view: its status and headers, the
//     head time (`:response-time`);
//   - the line, when the body has been delivered (the last chunk read) or cancelled (the
//     client went away): the body is passed through a stream that counts its bytes, in a new
//     Response with the original's status and headers (so a Content-Length stays announced);
//     or, when nothing has begun to read that body 1 to 2 s after the Response was handed
//     on, then (./unread-bodies.ts): the Response was dropped (an outer Hono middleware that
//     replaced `c.res`) or is never sent;
//   - or, when the size is all the line waits for and it is known without the stream (a
//     Content-Length, or a string or bytes body where the runtime lets it be read:
//     ./core/response-size.ts), the line when the Response comes, the Response untouched;
//   - or, for a format that reads nothing the delivery decides (no `:total-time`, no size, no
//     error token, no application code: `combined`, `common`, `short`, `tiny`, `dev`), the
//     line when the Response comes, which would be the same at delivery, and the Response
//     handed on untouched. Passing a body through a stream costs more than the whole line:
//     Node 20's `new ReadableStream` alone (its `makeTransferable`) and, on Bun, the stream
//     it must then make of a body it would otherwise send from memory.
// A Response with no body, to HEAD, or with a status that has none (1xx, 204, 304) is logged
// at once and returned as it is, as is one the platform makes specially (a WebSocket upgrade,
// 101, which `new Response` cannot copy).

import type { AsyncResource } from 'node:async_hooks';
import { backgroundTimer } from '../background-timer.js';
import { failureOf, recordFailure } from '../failures.js';
import { hasNoBody } from '../http-facts.js';
import { requestSignal } from '../request-signal.js';
import { isThenable } from '../thenable.js';
import { captureContext } from './core/active-span.js';
import { Exchange } from './core/exchange.js';
import { lineScope, writeInScope } from './core/line-scope.js';
import { isUnset } from './core/option-off.js';
import { type ResolvedRequestIdOptions, requestIdFor } from './core/request-id.js';
import { sizeWithoutStream } from './core/response-size.js';
import {
  address,
  type NodeRequest,
  nodeRequestOf,
  runtimeAddress,
} from './core/runtime-address.js';
import { clock } from './core/timing.js';
import { ORIGIN } from './core/url-parts.js';
import { onceWarning } from './core/warnings.js';
import type { AddressOption, DoorDefaults } from './options.js';
import type {
  FetchLog,
  FetchLoggerFactory,
  FetchLoggerMiddleware,
  FetchLogRequest,
  FetchLogResponse,
  FetchMiddlewareContext,
  LogStream,
} from './types.js';
import { UNREAD_LIMIT_MS, UnreadBodies } from './unread-bodies.js';
import { type LineWriter, lineWriter } from './writer.js';

/** The Web `Request` seen through the line model (types.ts: `FetchLogRequest`). */
class FetchRequest implements FetchLogRequest {
  declare readonly request: Request;
  declare readonly method: string;
  declare readonly url: string;
  declare readonly httpVersionMajor: number;
  declare readonly httpVersionMinor: number;
  declare readonly ip: string | undefined;
  declare id: string | undefined;
  declare private lowerCased: Record<string, string | undefined> | undefined;

  constructor(request: Request, ip: string | undefined, node: NodeRequest | undefined) {
    this.request = request;
    this.method = request.method;
    this.url = targetOf(request.url);
    this.httpVersionMajor = node?.httpVersionMajor ?? 1;
    this.httpVersionMinor = node?.httpVersionMinor ?? 1;
    this.ip = ip;
    this.id = undefined;
    this.lowerCased = undefined;
  }

  /**
   * Whether the request came over TLS, from the URL the runtime built (`url.scheme` of the
   * `metrics` option, which reads Express's `req.secure` alike); read only by them.
   */
  get secure(): boolean {
    return this.request.url.startsWith('https:');
  }

  /** `request.headers` as node:http keys them (Headers iterate lower-case, repeats joined). */
  get headers(): Readonly<Record<string, string | undefined>> {
    if (this.lowerCased === undefined) this.lowerCased = headersView(this.request.headers);
    return this.lowerCased;
  }
}

/** A `Headers` seen as node:http's `req.headers`, filled as it is read. */
class HeadersView implements ProxyHandler<Record<string, string | undefined>> {
  declare private readonly headers: Headers;
  declare private complete: boolean;

  constructor(headers: Headers) {
    this.headers = headers;
    this.complete = false;
  }

  get(target: Record<string, string | undefined>, name: string | symbol): string | undefined {
    if (typeof name !== 'string') return undefined;
    if (name in target || this.complete) return target[name];
    // node:http's keys are lower-case: `headers['User-Agent']` finds nothing there either.
    let value: string | undefined;
    if (name.toLowerCase() === name) {
      try {
        value = this.headers.get(name) ?? undefined;
      } catch {
        // Not a header name (`Headers.get` throws a TypeError): no such header.
      }
    }
    target[name] = value;
    return value;
  }

  has(target: Record<string, string | undefined>, name: string | symbol): boolean {
    return this.get(target, name) !== undefined;
  }

  ownKeys(target: Record<string, string | undefined>): (string | symbol)[] {
    return Reflect.ownKeys(this.filled(target));
  }

  getOwnPropertyDescriptor(
    target: Record<string, string | undefined>,
    name: string | symbol,
  ): PropertyDescriptor | undefined {
    const filled = this.filled(target);
    return filled[name as string] === undefined
      ? undefined
      : Reflect.getOwnPropertyDescriptor(filled, name);
  }

  /** Every header in the target, in the order Headers list them, and no other name. */
  private filled(target: Record<string, string | undefined>): Record<string, string | undefined> {
    if (!this.complete) {
      this.complete = true;
      for (const name of Object.keys(target)) delete target[name];
      for (const [name, value] of this.headers) target[name] = value;
    }
    return target;
  }
}

/**
 * The request's headers keyed by lower-case name, read one by one (`Headers.get`) as tokens
 * ask for them: listing them all (what `Object.keys` and `JSON.stringify` do) sorts and copies
 * every header, about 1 µs for a browser's dozen on Node 20 and on Bun, against 0.1 to 0.3 µs
 * for the three a `combined` line reads. No prototype: a `:req[constructor]` finds no Object
 * method.
 */
function headersView(headers: Headers): Record<string, string | undefined> {
  return new Proxy(
    Object.create(null) as Record<string, string | undefined>,
    new HeadersView(headers),
  );
}

/** The handler's answer seen through the line model (types.ts: `FetchLogResponse`). */
class FetchResponse implements FetchLogResponse {
  declare statusCode: number;
  declare headersSent: boolean;
  declare writableEnded: boolean;
  declare writableFinished: boolean;
  declare response: Response | undefined;
  /** The headers answered with: the Response's, or a copy with the request id. */
  declare sentHeaders: Headers | undefined;

  constructor() {
    this.statusCode = 200;
    this.headersSent = false;
    this.writableEnded = false;
    this.writableFinished = false;
    this.response = undefined;
    this.sentHeaders = undefined;
  }

  getHeader(name: string): string | undefined {
    return this.sentHeaders?.get(name) ?? undefined;
  }
}

/** The request target as node:http's `req.url` has it: path and query of the absolute URL. */
function targetOf(url: string): string {
  // An http(s) URL as the URL parser writes it (what `request.url` is) has its path right
  // after the authority, which holds no "/", "?" or "#": found without the regular
  // expression, which cost 10 times as much on Bun. Anything else takes the general path.
  const start = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  if (start !== -1) {
    const path = url.indexOf('/', start);
    const query = url.indexOf('?', start);
    const fragment = url.indexOf('#', start);
    if (path !== -1 && (query === -1 || path < query) && (fragment === -1 || path < fragment)) {
      return url.slice(path);
    }
  }
  const origin = ORIGIN.exec(url);
  if (origin === null) return url;
  const target = url.slice(origin[0].length);
  return target === '' ? '/' : target;
}

/** The default stream: standard output where there is one, else the console (workerd). */
function defaultStream(): LogStream {
  const stdout = (globalThis as { process?: { stdout?: LogStream } }).process?.stdout;
  if (stdout !== undefined && typeof stdout.write === 'function') return stdout;
  return {
    write(line: string) {
      console.log(line.endsWith('\n') ? line.slice(0, -1) : line);
      return true;
    },
  };
}

/** The wrapped handler's arguments as they came (`arguments`: no array is made per call). */
type HandlerArguments = ArrayLike<unknown>;

const addressFailed = onceWarning(
  'HTTPWARE_LOGGER_ADDRESS',
  'logger: the remoteAddress function threw; the address is written as "-"',
);

/** What the `remoteAddress` option gives; a throw costs the line its address, not the request. */
function givenAddress(given: AddressOption, args: HandlerArguments): string | undefined {
  try {
    return address(given.apply(undefined, args as unknown as Parameters<AddressOption>));
  } catch (err) {
    addressFailed(err);
    return undefined;
  }
}

/** The one request's exchange, and what the door does with it. */
class FetchExchange {
  readonly req: FetchRequest;
  readonly res: FetchResponse;
  readonly exchange: Exchange;
  readonly writer: LineWriter;
  /** The `requestId` option resolved, when it is on. */
  readonly ids: ResolvedRequestIdOptions | undefined;
  /** Whether the line was written (a body both ending and cancelled gives one line). */
  private logged: boolean;
  /** The logger's unread bodies, which this one's is among until it is read (`queued`). */
  private readonly unread: UnreadBodies;
  private queued: boolean;
  /** The handler's third argument: Workers' `ctx`, whose `waitUntil` keeps `timer` alive. */
  private readonly ctx: unknown;
  /** On Workers, the body's own timer in place of the sweeps; cleared by its first read. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Settles the promise handed to `ctx.waitUntil`, once the line is written. */
  private written: (() => void) | undefined;
  /** The async context of the call, when the line may run the application's code. */
  private readonly scope: AsyncResource | undefined;
  /**
   * Whether the line waits for the body's delivery: the format reads what only its end tells
   * (`needs.delivered`), or runs the application's code (a format function, a custom token,
   * `skip`), which may read anything. Otherwise the line, the same either way, is written
   * when the Response comes, and the Response is handed on untouched.
   */
  private readonly watches: boolean;

  constructor(
    writer: LineWriter,
    request: Request,
    args: HandlerArguments,
    given: AddressOption | undefined,
    ids: ResolvedRequestIdOptions | undefined,
    unread: UnreadBodies,
  ) {
    const second = args[1];
    const node = nodeRequestOf(request, second);
    const peer =
      given === undefined ? runtimeAddress(request, second, node) : givenAddress(given, args);
    // `trustProxy`: the peer's address is the runtime's (or the option's); a proxy's on top.
    const proxy = writer.options.proxy;
    const ip =
      proxy === undefined
        ? peer
        : proxy.resolve(peer, request.headers.get(proxy.header) ?? undefined);
    this.req = new FetchRequest(request, ip, node);
    this.ids = ids;
    if (ids !== undefined) {
      // As the requestId middleware: a trusted, well-formed incoming id, else a new UUID.
      const incoming = ids.trust ? request.headers.get(ids.header) : undefined;
      this.req.id = requestIdFor(incoming);
    }
    this.res = new FetchResponse();
    this.writer = writer;
    const any = writer.callsApplication();
    // The clock is read only for a line that has a time in it, as on Node.
    const startedAt = writer.needs.arrival || any ? clock() : Number.NaN;
    this.exchange = new Exchange(this.req, this.res, startedAt, ip);
    if (writer.needs.span || any) this.exchange.context = captureContext();
    // The line may run the application's code, which may read an AsyncLocalStorage: it is
    // made in the context the handler was called in, not the runtime's that reads the body.
    const runsCode = any || writer.callbacks;
    this.scope = lineScope(runsCode);
    this.watches = runsCode || writer.needs.delivered;
    this.logged = false;
    this.unread = unread;
    this.queued = false;
    this.ctx = args[2];
    this.timer = undefined;
    this.written = undefined;
  }

  /** Writes the line, once. A failure recorded on the Web `Request` is the line's too. */
  line(): void {
    if (this.logged) return;
    this.logged = true;
    this.reading();
    this.written?.();
    const failure = failureOf(this.req.request);
    if (failure !== undefined) recordFailure(this.req, failure);
    writeInScope(this.scope, this.writer.log, this.exchange);
  }

  /** The watched body is handed on: its line waits for it to be read, within a bound. */
  private awaitReading(): void {
    const waitUntil = (this.ctx as { waitUntil?: unknown } | null | undefined)?.waitUntil;
    if (typeof waitUntil !== 'function') {
      this.queued = true;
      this.unread.add(this);
      return;
    }
    // Cloudflare Workers: a timer dies with the request that set it, which ends once the
    // answer (another body, if this one was dropped) is sent; `waitUntil` keeps this one.
    this.timer = backgroundTimer(() => this.neverRead(), UNREAD_LIMIT_MS);
    waitUntil.call(
      this.ctx,
      new Promise<void>((resolve) => {
        this.written = resolve;
      }),
    );
  }

  /** The watched body began to be read (or the line is written): no need to wait for it. */
  private reading(): void {
    if (this.queued) {
      this.queued = false;
      this.unread.delete(this);
    } else if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * Nothing read the watched body in time: no one will. The line is written as for a body
   * cancelled (its size unknown), timed to when the Response was handed on, its end.
   */
  neverRead(): void {
    this.queued = false;
    this.timer = undefined;
    this.exchange.endedAt = this.exchange.headAt;
    this.line();
  }

  /**
   * With `metrics`: a client that leaves before the handler answers ends the request then, as
   * on Node (no status, timed to the moment it left, `request.aborted`), and a handler that
   * never settles is not counted active for ever. `request.signal` aborts then under
   * @hono/node-server, srvx and Bun (when the response closes unfinished); a Request whose
   * signal never aborts (Deno's is not read: `requestSignal`) is ended by its handler's answer.
   */
  watchLeaving(request: Request): void {
    const signal = requestSignal(request);
    if (signal == null || signal.aborted || typeof signal.addEventListener !== 'function') return;
    signal.addEventListener('abort', () => this.left(), { once: true });
  }

  /** The client left: before any answer, its line (and measurement) is now, without a status. */
  private left(): void {
    if (this.res.headersSent) return;
    this.line();
  }

  /** The head is out: the handler answered (or threw). */
  private head(status: number, response?: Response, headers?: Headers): void {
    const { exchange, res } = this;
    exchange.headWritten = true;
    if (!Number.isNaN(exchange.startedAt)) exchange.headAt = clock();
    res.statusCode = status;
    res.response = response;
    res.sentHeaders = headers;
    res.headersSent = true;
  }

  /** The handler threw: the line says 500, what every runtime answers with then. */
  failed(err: unknown): void {
    this.head(500);
    this.res.writableEnded = true;
    if (failureOf(this.req.request) === undefined) recordFailure(this.req.request, err);
    this.line();
  }

  /** The handler answered: the Response to hand to the runtime, its body watched. */
  answered(response: Response): Response {
    // Its client left before (`left`): the line is written, the Response goes to no one.
    if (this.logged) return response;
    // Each getter of a runtime's Response checks its brand: `status` and `headers` read once.
    const status = (response as Partial<Response> | null | undefined)?.status;
    const own = (response as Partial<Response> | null | undefined)?.headers;
    if (typeof status !== 'number' || typeof own?.get !== 'function') {
      // Not a Response: the runtime fails the request with a 500.
      this.failed(new TypeError('the handler did not return a Response'));
      return response;
    }
    // A status `new Response` cannot copy (a WebSocket upgrade's 101) is left as it is.
    const copyable = status >= 200 && status <= 599;
    const headers = this.headersOf(own, copyable);
    this.head(status, response, headers);
    if (!this.watches) {
      this.line();
      return handedOn(response, own, headers);
    }
    // A size known without the stream (./core/response-size.ts) is all the line waits for when
    // no application code runs in it: the Response goes on untouched, its length announced.
    const size =
      this.scope === undefined && copyable ? sizeWithoutStream(response, own) : undefined;
    if (size !== undefined) {
      this.exchange.meter = { counting: false, bytes: 0, ending: false, announced: size };
      this.delivered();
      return handedOn(response, own, headers);
    }
    const body = response.body;
    if (body !== null && (body.locked || response.bodyUsed)) {
      // A body already read (or being read) can be neither watched nor sent: the runtime
      // fails the request as it would without the logger, and the line, its size unknown,
      // is written now.
      this.line();
      return response;
    }
    if (body === null || !copyable || hasNoBody(this.req.method, status)) {
      // No body sent: its size is 0, as node:http's for a response ended without one.
      if (body === null)
        this.exchange.meter = { counting: true, bytes: 0, ending: false, announced: undefined };
      this.delivered();
      return handedOn(response, own, headers);
    }
    return copied(response, this.watched(body, own), headers);
  }

  /** The whole body was handed on (or there was none): the line is written now. */
  private delivered(): void {
    this.res.writableEnded = true;
    this.res.writableFinished = true;
    this.line();
  }

  /**
   * `body` passed through a stream that counts its bytes (unless its length is announced) and
   * writes the line at its last chunk, or when it is cancelled or fails.
   */
  private watched(body: ReadableStream<Uint8Array>, headers: Headers): ReadableStream<Uint8Array> {
    const counted = headers.has('content-length')
      ? undefined
      : { counting: true, bytes: 0, ending: false, announced: undefined };
    this.exchange.meter = counted;
    const reader = body.getReader();
    let controller: ReadableStreamDefaultController<Uint8Array>;
    const next = (chunk: Awaited<ReturnType<typeof reader.read>>): void => {
      if (chunk.done) {
        controller.close();
        this.delivered();
        return;
      }
      if (counted !== undefined) counted.bytes += chunk.value.byteLength;
      controller.enqueue(chunk.value);
    };
    const failed = (err: unknown): void => {
      controller.error(err);
      this.line();
    };
    // Pulled as the runtime reads, one chunk at a time: the last read is the delivery.
    const watched = new ReadableStream<Uint8Array>(
      {
        start: (given) => {
          controller = given;
        },
        pull: () => {
          this.reading();
          return reader.read().then(next, failed);
        },
        cancel: (reason) => {
          this.line();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    this.awaitReading();
    return watched;
  }

  /**
   * The headers to answer with: the Response's own, or a copy with the request id (as the
   * requestId middleware sets it) when the option is on and the Response can be copied.
   */
  private headersOf(own: Headers, copyable: boolean): Headers {
    const id = this.req.id;
    if (this.ids === undefined || id === undefined || !copyable) return own;
    const headers = new Headers(own);
    headers.set(this.ids.header, id);
    return headers;
  }
}

/** The Response as it is, or a copy of it with the headers given when they are not its own (`own`, read once). */
function handedOn(response: Response, own: Headers, headers: Headers): Response {
  return headers === own ? response : copied(response, response.body, headers);
}

/** A Response with the original's status and status text, and the body and headers given. */
function copied(
  response: Response,
  body: ReadableStream<Uint8Array> | null,
  headers: Headers,
): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Hono's `c.executionCtx` (Workers' `ctx`, or whichever runtime gave `app.fetch` one): its
 * `waitUntil` keeps a watched body's timer alive. Where there is none, Hono's getter throws.
 */
function executionContextOf(c: FetchMiddlewareContext): unknown {
  try {
    return (c as { executionCtx?: unknown }).executionCtx;
  } catch {
    return undefined;
  }
}

/** The `route` of `log(handler, { route })`, checked when the handler is wrapped. */
function handlerRoute(given: unknown): string | undefined {
  if (isUnset(given)) return undefined;
  if (typeof given !== 'object') throw new TypeError('argument options must be an object');
  const route = (given as { route?: unknown }).route;
  if (route === undefined) return undefined;
  if (typeof route !== 'string' || route === '') {
    throw new TypeError('option route must be a non-empty string (the route template)');
  }
  return route;
}

/** What the route is read from on Hono's request (`c.req`). */
interface HonoRequestRoutes {
  /** The index, in the matched routes, of the handler that ran last (Hono's compose sets it). */
  readonly routeIndex?: unknown;
  /** Every route the request matched, middleware included, in the order they run. */
  readonly matchedRoutes?: unknown;
}

/** What Hono records of a route (`app.get(path, handler)`, `app.use(path, middleware)`). */
interface HonoRoute {
  readonly path?: unknown;
  readonly method?: unknown;
}

/**
 * The route of the handler that answered under Hono, once the chain has run: the matched route
 * at `c.req.routeIndex`, which Hono's compose moves to each handler as it is called. Read
 * before `await next()`, it is the logger's own entry (`/*`, hono issues #3876, #4196); read
 * after, it is the last handler that ran. Taken only when that route is registered for a
 * method (`app.get`, `app.post`, `app.on`): a middleware's (`app.use`, recorded for the method
 * `ALL`) is what is left there when no handler answered (the 404) or a middleware answered
 * (an authentication check's 401), and its path (`/*`, `/api/*`) is no route. `app.all`
 * records its handlers as `app.use` does, so theirs cannot be told apart: none either.
 * `matchedRoutes` (a getter deprecated for `hono/route`'s helpers, which read a private
 * symbol) is read only when the line reads the route; a Hono without it gives none.
 */
function honoRoute(c: FetchMiddlewareContext): string | undefined {
  const req = c.req as HonoRequestRoutes;
  const index = req.routeIndex;
  if (typeof index !== 'number') return undefined;
  const routes = req.matchedRoutes;
  if (!Array.isArray(routes)) return undefined;
  const route = routes[index] as HonoRoute | null | undefined;
  const path = route?.path;
  return typeof path === 'string' && typeof route?.method === 'string' && route.method !== 'ALL'
    ? path
    : undefined;
}

/** Where the Web door's lines go by default; its own options are read (options.ts). */
const WEB: DoorDefaults = { defaultStream, web: true };

/** Writes an exchange's line (`immediate`: on arrival). */
function lineOf(exchange: FetchExchange): void {
  exchange.line();
}

/**
 * One fetchLogger's arrivals, shared by its handler wrapper and its Hono middleware: whether a
 * request is left out, and the exchange of one that is not.
 */
class FetchArrivals {
  readonly writer: LineWriter;
  private readonly unread: UnreadBodies;
  /**
   * Only the metrics pay for the signal's listener (0.6 to 0.9 µs a request on Bun): a line
   * alone is not owed to a request never answered.
   */
  private readonly measured: boolean;

  constructor(writer: LineWriter) {
    this.writer = writer;
    this.unread = new UnreadBodies();
    this.measured = writer.options.metrics !== undefined;
  }

  /** `exclude`'s paths and methods: such a request goes to the handler untouched. */
  excluded(request: Request): boolean {
    // `request.url` is absolute, its dot segments resolved by the URL parser.
    return this.writer.excludes && this.writer.excluded(request.method, request.url);
  }

  /** The request's exchange, or undefined when its line is written already (`immediate`). */
  start(request: Request, args: HandlerArguments, route?: string): FetchExchange | undefined {
    const { writer, measured } = this;
    const { remoteAddress, requestId } = writer.options;
    const exchange = new FetchExchange(
      writer,
      request,
      args,
      remoteAddress,
      requestId,
      this.unread,
    );
    if (route !== undefined) exchange.exchange.route = route;
    if (writer.arrived(exchange.exchange, exchange, lineOf)) return undefined;
    if (measured) exchange.watchLeaving(request);
    return exchange;
  }
}

/** `log(handler, { route })`: the handler wrapped, one line per call. */
function handlerWrapper(arrivals: FetchArrivals) {
  return function wrap(
    handler: (request: Request, ...rest: unknown[]) => unknown,
    given?: unknown,
  ) {
    if (typeof handler !== 'function') throw new TypeError('argument handler must be a function');
    const route = handlerRoute(given);
    return function logged(this: unknown, request: Request): unknown {
      // The handler gets exactly the arguments given (Workers' env and ctx, Deno's info, ...).
      // biome-ignore lint/complexity/noArguments: forwarded as they are, no array per request
      const args = arguments as unknown as [Request, ...unknown[]];
      if (arrivals.excluded(request)) return handler.apply(this, args);
      const exchange = arrivals.start(request, args, route);
      if (exchange === undefined) return handler.apply(this, args);
      let result: unknown;
      try {
        result = handler.apply(this, args);
      } catch (err) {
        exchange.failed(err);
        throw err;
      }
      if (!isThenable(result)) return exchange.answered(result as Response);
      return Promise.resolve(result).then(
        (response) => exchange.answered(response as Response),
        (err: unknown) => {
          exchange.failed(err);
          throw err;
        },
      );
    };
  };
}

/** `log.middleware`: the same lines as Hono middleware. */
function honoMiddleware(arrivals: FetchArrivals): FetchLoggerMiddleware {
  const { needs, callsApplication } = arrivals.writer;
  return async (c: FetchMiddlewareContext, next) => {
    if (arrivals.excluded(c.req.raw)) return next();
    const exchange = arrivals.start(c.req.raw, [c.req.raw, c.env, executionContextOf(c)]);
    if (exchange === undefined) return next();
    // Hono's route is known once its handler has run (see honoRoute).
    const routed = needs.route || callsApplication();
    try {
      await next();
    } catch (err) {
      if (routed) exchange.exchange.route = honoRoute(c);
      exchange.failed(err);
      throw err;
    }
    if (routed) exchange.exchange.route = honoRoute(c);
    const response = c.res;
    const watched = exchange.answered(response);
    // Hono copies a Response it is given: only a watched body is worth replacing the answer.
    if (watched !== response) c.res = watched;
  };
}

/** `fetchLogger(format, options)`: see the header of this file and docs/web.md. */
export const fetchLogger: FetchLoggerFactory = function fetchLogger(
  format: unknown,
  options?: unknown,
): FetchLog {
  const arrivals = new FetchArrivals(lineWriter(format, options, WEB));
  const wrap = handlerWrapper(arrivals);
  return Object.assign(wrap, { middleware: honoMiddleware(arrivals) }) as unknown as FetchLog;
};
