// The logger's public types. `src/index.ts` re-exports every one of them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Next } from '../middleware.js';

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

/** A built-in token, as reached through the `tokens` object. */
export type BuiltinTokenFn = (
  req: IncomingMessage,
  res: ServerResponse,
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
  readonly res: (req: IncomingMessage, res: ServerResponse, field?: string) => TokenValue;
  readonly 'response-time': BuiltinTokenFn;
  readonly status: BuiltinTokenFn;
  readonly 'total-time': BuiltinTokenFn;
  readonly url: BuiltinTokenFn;
  readonly 'user-agent': BuiltinTokenFn;
  /** `req.id`, as the requestId middleware sets it. */
  readonly 'request-id': (req: IncomingMessage, res: ServerResponse) => TokenValue;
  /** The trace id of a valid W3C `traceparent` request header. */
  readonly 'trace-id': BuiltinTokenFn;
  /** The URL's path, without the query. */
  readonly path: BuiltinTokenFn;
  /** The URL's query without `?`, values of secret-looking parameters masked. */
  readonly query: (req: IncomingMessage, res: ServerResponse) => TokenValue;
  /** The route pattern the framework matched (Express: `req.baseUrl + req.route.path`). */
  readonly route: BuiltinTokenFn;
  /** The type of the error recorded for the request (a parser's, `logger.recordError`). */
  readonly 'error-type': BuiltinTokenFn;
  /** The message of that error, with no part of a request body. */
  readonly 'error-message': BuiltinTokenFn;
  /** The bytes of the body sent: the announced length, or the bytes written; 0 without a body. */
  readonly 'res-body-bytes': BuiltinTokenFn;
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
  /** Destination of the lines; default `process.stdout` (resolved when the logger is made). */
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
}

/** The `otel` option's object form. */
export interface OtelOptions {
  /** An OpenTelemetry `LoggerProvider` (from `@opentelemetry/sdk-logs`, say). */
  loggerProvider: OtelLoggerProvider;
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
  token<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse>(
    name: string,
    fn: TokenFn<Req, Res>,
  ): Logger;
  /** Registers (or overwrites) the named format. Returns the logger, for chaining. */
  format<
    Req extends IncomingMessage = IncomingMessage,
    Res extends ServerResponse = ServerResponse,
  >(name: string, format: string | FormatFn<Req, Res>): Logger;
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
  recordError(req: IncomingMessage | Http2ServerRequest, err: unknown): void;
  /** The header names and query parameters masked by default. */
  readonly redactDefaults: RedactDefaults;
}
