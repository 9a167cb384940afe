// The logger's public types. `src/index.ts` re-exports every one of them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Next } from '../middleware.js';
import type { DestinationFactory } from './destination/types.js';

/**
 * The request as the logger's core reads it: what every line is made from, whichever door the
 * request came in by. node:http's `IncomingMessage` (and Express's, Connect's and HTTP/2's
 * compatibility requests) fit it as they are; the fetch door (`fetchLogger`) hands tokens a
 * `FetchLogRequest`, made from the Web `Request`. A token typed over this model works on both.
 */
export interface LogRequest {
  readonly method?: string | undefined;
  /** The request target as sent: path and query (`/users?id=3`). */
  readonly url?: string | undefined;
  /** The full target when a framework rewrote `url` inside a mounted app (Express, Connect). */
  readonly originalUrl?: string | undefined;
  /** The request's headers, keyed by lower-case name. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly httpVersionMajor: number;
  readonly httpVersionMinor: number;
  /** The connection, on node:http (absent on the fetch door). */
  readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined;
  /** The client's address when something better than the socket's is known (Express's `req.ip`). */
  readonly ip?: string | undefined;
  /** The request id (`:request-id`), as the requestId middleware sets it. */
  readonly id?: unknown;
}

/** The response as the logger's core reads it; node:http's `ServerResponse` fits it. */
export interface LogResponse {
  readonly statusCode: number;
  /** Whether the status and headers are out (on the fetch door: the handler's Response came). */
  readonly headersSent: boolean;
  /** Whether the application ended the response. */
  readonly writableEnded: boolean;
  getHeader(name: string): number | string | string[] | undefined;
}

/**
 * What tokens, format functions and `skip` receive as `req` on the fetch door: the Web
 * `Request` seen through the line model. Made once per request, its headers object on first
 * read.
 */
export interface FetchLogRequest extends LogRequest {
  readonly method: string;
  /** Path and query of `request.url` (`/users?id=3`), as node:http's `req.url` has them. */
  readonly url: string;
  /** `request.headers` as a plain object keyed by lower-case name (repeated values joined). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** From Node's own request under `@hono/node-server` or srvx; 1.1 elsewhere (not given). */
  readonly httpVersionMajor: number;
  readonly httpVersionMinor: number;
  /** The client's address as the runtime gave it (see docs/web.md), or undefined. */
  readonly ip: string | undefined;
  /** The request id, with the `requestId` option (`:request-id`); else undefined. */
  readonly id: string | undefined;
  /** The Web `Request` the handler received. */
  readonly request: Request;
}

/** What tokens, format functions and `skip` receive as `res` on the fetch door. */
export interface FetchLogResponse extends LogResponse {
  /** The Response's status; 500 when the handler threw; 200 before the handler answered. */
  readonly statusCode: number;
  /** Whether the handler has answered (or thrown): false for `immediate` lines. */
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  /** Whether the whole body was delivered (false when the client cancelled it). */
  readonly writableFinished: boolean;
  /** A header of the Response (`Headers.get`: repeated values joined), or undefined. */
  getHeader(name: string): string | undefined;
  /** The handler's Response, once it answered; undefined before, or when it threw. */
  readonly response: Response | undefined;
}

/** A token for the fetch door: `fn(req, res, ...args)` over the adapted request and response. */
export type FetchTokenFn = TokenFn<FetchLogRequest, FetchLogResponse>;

/** The names of the predefined formats. */
export type PredefinedFormat = 'combined' | 'common' | 'dev' | 'short' | 'tiny' | 'json' | 'ecs';

/**
 * What a token may return. Strings are escaped before they enter a line; any other value is
 * written as JavaScript would concatenate it. A falsy value (`undefined`, `null`, `''`, `0`,
 * `false`) is written as `-` by a format string.
 */
export type TokenValue = string | number | boolean | null | undefined;

/**
 * A token: `fn(req, res, ...args)`. In a format string `:name[arg]` passes the string `arg`;
 * `:name` passes none.
 */
export type TokenFn<Req = IncomingMessage, Res = ServerResponse> = (
  req: Req,
  res: Res,
  ...args: string[]
) => TokenValue;

/** A built-in token, as reached through the `tokens` object (it reads the line model). */
export type BuiltinTokenFn = (
  req: LogRequest,
  res: LogResponse,
  arg?: string,
) => string | undefined;

/**
 * The object handed to format functions: every defined token by name, built-in and custom,
 * each returning its value already escaped. Read-only: define tokens with `logger.token`.
 */
export interface Tokens {
  readonly date: BuiltinTokenFn;
  readonly 'http-version': BuiltinTokenFn;
  readonly method: BuiltinTokenFn;
  readonly pid: BuiltinTokenFn;
  readonly referrer: BuiltinTokenFn;
  readonly 'remote-addr': BuiltinTokenFn;
  readonly 'remote-user': BuiltinTokenFn;
  readonly req: BuiltinTokenFn;
  /** A number when the header was set as one (e.g. `Content-Length`). */
  readonly res: (req: LogRequest, res: LogResponse, field?: string) => TokenValue;
  readonly 'response-time': BuiltinTokenFn;
  readonly status: BuiltinTokenFn;
  readonly 'total-time': BuiltinTokenFn;
  readonly url: BuiltinTokenFn;
  readonly 'user-agent': BuiltinTokenFn;
  /** `req.id`, as the requestId middleware sets it. */
  readonly 'request-id': (req: LogRequest, res: LogResponse) => TokenValue;
  /** The trace id of a valid W3C `traceparent` request header. */
  readonly 'trace-id': BuiltinTokenFn;
  /** The URL's path, without the query. */
  readonly path: BuiltinTokenFn;
  /** The URL's query without `?`, values of secret-looking parameters masked. */
  readonly query: (req: LogRequest, res: LogResponse) => TokenValue;
  /** The route pattern the framework matched (Express: `req.baseUrl + req.route.path`). */
  readonly route: BuiltinTokenFn;
  /** The type of the error recorded for the request (a parser's, `logger.recordError`). */
  readonly 'error-type': BuiltinTokenFn;
  /** The message of that error, with no part of a request body. */
  readonly 'error-message': BuiltinTokenFn;
  /** The bytes of the body sent: the announced length, or the bytes written; 0 without a body. */
  readonly 'res-body-bytes': BuiltinTokenFn;
  /** `true` on the line of a slow request (option `slow`), else undefined. */
  readonly slow: (req: LogRequest, res: LogResponse) => TokenValue;
  /** The share of such requests kept, on a sampling logger's lines (option `sample`). */
  readonly 'sample-rate': (req: LogRequest, res: LogResponse) => TokenValue;
  // biome-ignore lint/suspicious/noExplicitAny: custom tokens may be typed for any request type
  readonly [name: string]: TokenFn<any, any>;
}

/**
 * A format function: returns the line (without its newline), or `undefined`/`null` to skip
 * the request. With an object-mode stream it may return an object, written as it is.
 */
export type FormatFn<Req = IncomingMessage, Res = ServerResponse> = (
  tokens: Tokens,
  req: Req,
  res: Res,
) => string | object | null | undefined;

/** A format function made from a format string by `logger.compile`: it always makes a line. */
export type CompiledFormatFn<Req = IncomingMessage, Res = ServerResponse> = (
  tokens: Tokens,
  req: Req,
  res: Res,
) => string;

/** Where lines go: anything with a `write` method (a Writable, a file or rotating stream). */
export interface LogStream {
  write(line: string): unknown;
  /** When true, objects returned by a format function are written as they are. */
  readonly writableObjectMode?: boolean;
}

export interface LoggerOptions<Req = IncomingMessage, Res = ServerResponse> {
  /** Write the line when the request arrives instead of when the response is done. */
  immediate?: boolean | undefined;
  /** `skip(req, res)` returning true leaves the request out of the log. */
  skip?: ((req: Req, res: Res) => boolean) | false | null | undefined;
  /**
   * Destination of the lines; default `process.stdout` (resolved when the logger is made).
   * `logger.destination(path or fd)` gives one that batches, is bounded and loses nothing at
   * exit (docs/logger.md, "Where lines go").
   */
  stream?: LogStream | null | undefined;
  /**
   * Collects lines and writes them together, `buffer` milliseconds (1000 for `true`) after the
   * first line of a batch.
   * @deprecated As in morgan: give a buffering stream instead.
   */
  buffer?: boolean | number | undefined;
  /**
   * What is masked in lines, in every format: the values of credential headers, of
   * secret-looking query parameters (in `:url`, `:referrer`, `:query`, URL-valued headers)
   * and the userinfo of absolute URLs (`logger.redactDefaults` lists the names). A list given
   * adds to the default one; a function replaces it; `false` masks nothing.
   */
  redact?: RedactOptions | boolean | undefined;
  /**
   * What `error.message` and `:error-message` say of an error a body parser made or adopted.
   * `'safe'` (the default): a text httpware wrote, which never holds a submitted value (for a
   * failed schema, counts and path keys; for a refusing `verify`, that it refused). An error
   * the application records itself keeps its own message. `'verbatim'`: every error's own
   * message, which may quote what the client sent (a validator printing the value it
   * rejected, a JSON parse error quoting the body): only for logs as private as the bodies.
   */
  errorMessage?: 'safe' | 'verbatim' | null | undefined;
  /**
   * Emits each request as an OpenTelemetry log record: `true` through the global
   * LoggerProvider (needs `@opentelemetry/api-logs`), `{ loggerProvider }` through the one
   * given. Without a `stream`, the records are the only output.
   */
  otel?: boolean | OtelOptions | null | undefined;
  /**
   * Records OpenTelemetry's HTTP server metrics (`http.server.request.duration`,
   * `http.server.active_requests`, the body sizes) from the line's own measurement, for every
   * request whatever `skip` or sampling decide about its line: `true` through the global
   * MeterProvider (needs `@opentelemetry/api`), `{ meter }` through the Meter given. Off by
   * default, at no cost per request. See docs/metrics.md.
   */
  metrics?: boolean | MetricsOptions | null | undefined;
  /**
   * Which proxies in front of the server are trusted to say who the client is, as Express's
   * `trust proxy` setting: `true` (every hop), a hop count, addresses and CIDR ranges (or the
   * names `loopback`, `linklocal`, `uniquelocal`) as a list or a comma-separated string, or a
   * function. `:remote-addr` and the JSON/OTel client address are then the first untrusted
   * address of `forwardedHeader`, read from the right. Express's own `req.ip` still wins where
   * it is set. Off by default: no header is believed.
   */
  trustProxy?: TrustProxy | null | undefined;
  /**
   * The header the trusted proxies write: `x-forwarded-for` (the default) or RFC 7239's
   * `forwarded`. Only one is ever read; needs `trustProxy`.
   */
  forwardedHeader?: 'x-forwarded-for' | 'forwarded' | null | undefined;
  // Production controls (docs/logger.md, "Leaving out, sampling, slow requests and levels")
  /**
   * Requests left out by path, method or status, beside `skip`: paths and methods are checked
   * on arrival (nothing is recorded for them), statuses when the response is done.
   */
  exclude?: LogExclusions | null | undefined;
  /**
   * Keeps this share (0 to 1) of the successful requests; every failure (a status of 400 or
   * more, no response, an error recorded) and every slow request is kept. Decided from the
   * trace id when the request has one, as OpenTelemetry's TraceIdRatioBased sampler does.
   */
  sample?: number | SampleOptions | null | undefined;
  /**
   * Milliseconds from arrival to the end of the response from which a request is slow: always
   * logged (never sampled out), its level raised to `warn`, `:slow` and the `slow` field true.
   */
  slow?: number | null | undefined;
  /**
   * The level of each line (`level`/`log.level`, OpenTelemetry severity); `'silent'` writes
   * nothing. Default: `error` for 5xx, `warn` for 4xx and requests without a response, else
   * `info`.
   */
  level?: ((req: Req, res: Res) => LogLevel) | null | undefined;
  /**
   * Writes a line when the request arrives too, before the completion line, both with the
   * same request id (a request without `req.id` is given a new UUID). `true` for the default
   * arrival line (`started :method :url :request-id`; for `json` and `ecs`, a JSON line marked
   * `"event.phase":"start"` or `"event.type":"start"`), or the arrival line's own format. Needs
   * a stream; not with `immediate`.
   */
  start?: boolean | PredefinedFormat | (string & {}) | FormatFn<Req, Res> | null | undefined;
  /**
   * Named fields of the parsed `req.body` (a plain object only) in JSON lines and
   * OpenTelemetry records, secret-looking keys masked. Off by default.
   */
  body?: BodyFieldsOptions | false | null | undefined;
}

/** The `body` option: which fields of the parsed request body a line carries, and its caps. */
export interface BodyFieldsOptions {
  /** Dot-separated key paths (`'user.name'`, `'order.items'`, `'items.0.sku'`), 1 to 64. */
  fields: readonly string[];
  /** Cap of the fields' JSON text in UTF-8 bytes, 64 to 65536; default 2048. */
  maxBytes?: number | undefined;
  /** Containers written inside a named value, 0 to 16; default 3. */
  maxDepth?: number | undefined;
}

/** A line's level; `silent` writes no line and no record. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/** A status code to leave out (`304`), a class (`'3xx'`) or an inclusive range (`[300, 399]`). */
export type StatusMatch = number | `${1 | 2 | 3 | 4 | 5}xx` | readonly [from: number, to: number];

/** The `exclude` option: what leaves a request out of the log. */
export interface LogExclusions {
  /**
   * Paths, without the query, as sent: exact (`'/health'`), a prefix (`'/assets/*'`) or a
   * RegExp. A path with a `.` or `..` segment is never left out by its path.
   */
  readonly paths?: readonly (string | RegExp)[] | undefined;
  /**
   * Methods (`'OPTIONS'`), in any case. `GET` leaves out `HEAD` too; `HEAD` without `GET` is a
   * TypeError, as frameworks answer `HEAD` with the `GET` routes.
   */
  readonly methods?: readonly string[] | undefined;
  /** Statuses of the response. */
  readonly statuses?: readonly StatusMatch[] | undefined;
}

/** The `sample` option's object form. */
export interface SampleOptions {
  /** The share of successful requests kept, from 0 to 1. */
  readonly rate: number;
  /** The lowest status always kept; default 400. */
  readonly keepStatus?: number | undefined;
  /**
   * Decide from the request's trace id (the active span's, else `traceparent`'s) when it has
   * one; default true. `false` ignores them: a client that sends its own `traceparent` can
   * then not choose which of its successful requests are kept.
   */
  readonly traceId?: boolean | undefined;
}

/** The address ranges Express's `trust proxy` setting names. */
export type TrustProxyName = 'loopback' | 'linklocal' | 'uniquelocal';

/** An address (`10.0.0.1`), a CIDR range (`10.0.0.0/8`, `fc00::/7`) or a range's name. */
export type TrustProxyAddress = TrustProxyName | (string & {});

/** The `trustProxy` option's values (Express's `trust proxy` setting's). */
export type TrustProxy =
  | boolean
  | number
  | TrustProxyAddress
  | readonly TrustProxyAddress[]
  | ((address: string, hop: number) => boolean);

/** The `otel` option's object form. */
export interface OtelOptions {
  /** An OpenTelemetry `LoggerProvider` (from `@opentelemetry/sdk-logs`, say). */
  loggerProvider: OtelLoggerProvider;
}

/** The `metrics` option's object form. */
export interface MetricsOptions {
  /** An OpenTelemetry `Meter` (`provider.getMeter('my-app')`, `@opentelemetry/sdk-metrics`). */
  meter: OtelMeter;
}

/**
 * The part of an OpenTelemetry `Meter` the logger uses, declared here so that the types need
 * no OpenTelemetry package; `@opentelemetry/api`'s `Meter` fits it.
 */
export interface OtelMeter {
  createHistogram(
    name: string,
    options?: object,
  ): { record(value: number, attributes?: object): void };
  createUpDownCounter(
    name: string,
    options?: object,
  ): { add(value: number, attributes?: object): void };
}

/**
 * The part of an OpenTelemetry `LoggerProvider` the logger uses, declared here so that the
 * types need no OpenTelemetry package; `@opentelemetry/sdk-logs`' provider fits it.
 */
export interface OtelLoggerProvider {
  getLogger(name: string, version?: string, options?: object): { emit(record: object): void };
}

/**
 * One list of the `redact` option: names to add to the default list, or a function that is
 * given the default list and returns the list to use instead.
 */
export type RedactList = readonly string[] | ((defaults: readonly string[]) => readonly string[]);

/** The names whose values a logger masks; header names and query keys are case-insensitive. */
export interface RedactOptions {
  headers?: RedactList | undefined;
  query?: RedactList | undefined;
}

/** The names a logger masks by default (`logger.redactDefaults`). */
export interface RedactDefaults {
  readonly headers: readonly string[];
  readonly query: readonly string[];
}

/**
 * A field function of `logger.json`: its value for the request, or `undefined`/`null` to leave
 * the field out. Its `tokens` return raw (unescaped) values: the JSON encoding escapes them.
 */
export type JsonFieldFn<Req = IncomingMessage, Res = ServerResponse> = (
  tokens: Tokens,
  req: Req,
  res: Res,
) => unknown;

/**
 * What a JSON field may be: a token string (`':status'`; exactly one token keeps the token's
 * type), a function, a literal, a nested map, or `undefined` (no such field).
 */
export type JsonFieldValue<Req = IncomingMessage, Res = ServerResponse> =
  | string
  | number
  | boolean
  | null
  | undefined
  | JsonFieldFn<Req, Res>
  | JsonFields<Req, Res>;

/** A map of JSON field names to their values, for `logger.json`. */
export interface JsonFields<Req = IncomingMessage, Res = ServerResponse> {
  readonly [field: string]: JsonFieldValue<Req, Res>;
}

/** `logger.json`: makes a JSON-lines format function; `presets` holds the predefined maps. */
export interface JsonFormatFactory {
  <Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
    fields: JsonFields<Req, Res>,
  ): FormatFn<Req, Res>;
  /** The field maps of the `json` and `ecs` formats, to extend or trim. */
  readonly presets: Readonly<{ json: JsonFields; ecs: JsonFields }>;
}

export interface RequestIdOptions {
  /** The request and response header carrying the id; default `x-request-id`. */
  header?: string | undefined;
  /** Keep a valid incoming id (default `true`); `false` always generates a new one. */
  trust?: boolean | undefined;
}

/** The requestId middleware: sets `req.id` and the response header, then calls `next`. */
export type RequestIdMiddleware<Req = IncomingMessage, Res = ServerResponse> = (
  req: Req,
  res: Res,
  next: Next,
) => void;

/** `requestId(options)`: creates the request-id middleware. */
export type RequestIdFactory = <
  Req extends IncomingMessage = IncomingMessage,
  Res extends ServerResponse = ServerResponse,
>(
  options?: RequestIdOptions | null,
) => RequestIdMiddleware<Req, Res>;

/**
 * The middleware `logger()` returns: `(req, res, next)`, accepted by node:http handlers,
 * Connect and Express 4/5 (their request and response types extend node's).
 */
export type LoggerMiddleware<Req = IncomingMessage, Res = ServerResponse> = (
  req: Req,
  res: Res,
  next: Next,
) => void;

/** The `logger` function and its members. */
export interface Logger {
  /**
   * Creates a logging middleware. `format` is a predefined or registered format name, a
   * format string (`:token` and `:token[arg]`), or a format function.
   */
  <Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
    format: PredefinedFormat | (string & {}) | FormatFn<Req, Res>,
    options?: LoggerOptions<Req, Res> | null,
  ): LoggerMiddleware<Req, Res>;
  /** Defines (or overwrites) the token `name`. Returns the logger, for chaining. */
  token<Req extends LogRequest = IncomingMessage, Res extends LogResponse = ServerResponse>(
    name: string,
    fn: TokenFn<Req, Res>,
  ): Logger;
  /** Registers (or overwrites) the named format. Returns the logger, for chaining. */
  format<Req extends LogRequest = IncomingMessage, Res extends LogResponse = ServerResponse>(
    name: string,
    format: string | FormatFn<Req, Res>,
  ): Logger;
  /**
   * Compiles a format string into a function of `(tokens, req, res)` returning the line. Its
   * type parameters only type the request and response the result is called with.
   */
  compile<
    Req extends IncomingMessage = IncomingMessage,
    Res extends ServerResponse = ServerResponse,
  >(format: string): CompiledFormatFn<Req, Res>;
  /** Makes a format function writing one JSON object per line from a map of fields. */
  readonly json: JsonFormatFactory;
  /** The request-id middleware (also exported as `requestId`). */
  readonly requestId: RequestIdFactory;
  /**
   * Records why a request failed, for its line: `error.type` and `error.message` in the
   * `json` and `ecs` formats, `:error-type` and `:error-message` in others. Recording
   * `undefined` or `null` forgets what was recorded.
   */
  recordError(req: IncomingMessage | Http2ServerRequest | Request, err: unknown): void;
  /** The logger for fetch handlers (also exported as `fetchLogger`). */
  readonly fetchLogger: FetchLoggerFactory;
  /**
   * A destination for the `stream` option: a file (appended to) or a descriptor, written in
   * batches, bounded, flushed at exit and on signals, reopened for log rotation.
   */
  readonly destination: DestinationFactory;
  /** The header names and query parameters masked by default. */
  readonly redactDefaults: RedactDefaults;
}

/**
 * A fetch handler: a Web `Request` (and whatever else the runtime passes: Workers' `env` and
 * `ctx`, Deno's `info`, Bun's `server`, Next.js's `{ params }`) in, a `Response` out. Declared
 * as a method so that a handler taking a subclass of `Request` (Next.js's `NextRequest`) fits.
 */
export type FetchHandler = {
  handler(request: Request, ...rest: never[]): Response | Promise<Response>;
}['handler'];

/** A Hono-style middleware's context, as far as the fetch logger reads and replaces it. */
export interface FetchMiddlewareContext {
  readonly req: { readonly raw: Request };
  res: Response;
  /** What the runtime passed beside the request (Bun's server, Deno's info...): the address. */
  readonly env?: unknown;
}

/** `log.middleware`: `async (c, next)`, for `app.use` in Hono. */
export type FetchLoggerMiddleware = (
  c: FetchMiddlewareContext,
  next: () => Promise<void>,
) => Promise<void>;

/** What `log(handler, options)` takes besides the handler. */
export interface FetchHandlerOptions {
  /**
   * The handler's route template, for `:route` and `http.route` (a Next.js route handler's
   * `'/users/[id]'`, a plain handler's `'/users/:id'`): where the file or the registration is
   * the route, the framework tells the handler nothing of it. A non-empty string; a request
   * without one has no route (never its raw path).
   */
  route?: string | undefined;
}

/** What `fetchLogger(format, options)` returns. */
export interface FetchLog {
  /** Wraps a fetch handler; the result has exactly the handler's type. */
  <H extends FetchHandler>(handler: H, options?: FetchHandlerOptions): H;
  /** The same logger as a Hono middleware: `app.use(log.middleware)`. */
  readonly middleware: FetchLoggerMiddleware;
}

/** The options of `fetchLogger`: the logger's, over the fetch door's request and response. */
export interface FetchLoggerOptions
  extends Omit<LoggerOptions<FetchLogRequest, FetchLogResponse>, 'buffer' | 'body'> {
  /**
   * The client's address for `:remote-addr`, from what the handler received; by default it is
   * what the runtime gives (docs/web.md). Returning undefined writes `-`.
   */
  remoteAddress?: ((request: Request, ...rest: unknown[]) => string | null | undefined) | undefined;
  /**
   * Gives each request an id, as the requestId middleware does on Node: a valid incoming one
   * (`X-Request-Id` by default) or a new UUID, logged by `:request-id` and sent back in the
   * response's header. `true` for the defaults; off by default.
   */
  requestId?: boolean | RequestIdOptions | null | undefined;
}

/** `fetchLogger(format, options)`: a logger for fetch handlers, one line per request. */
export type FetchLoggerFactory = (
  format: PredefinedFormat | (string & {}) | FormatFn<FetchLogRequest, FetchLogResponse>,
  options?: FetchLoggerOptions | null,
) => FetchLog;
