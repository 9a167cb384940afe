// The public types of httpware/parsers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorType, ValidationIssue } from '../errors.js';
import type { Next } from '../middleware.js';

/**
 * The middleware every factory returns: `(req, res, next)`, accepted by Express 4 and 5,
 * Connect, and callable from a plain node:http handler.
 */
export type ParserMiddleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** `type` as a function: the request is parsed when it returns a truthy value. */
export type TypeFunction = (req: IncomingMessage) => unknown;

/**
 * Called with the raw body (after inflation, before decoding) once it is read; throwing
 * refuses the request (403 `entity.verify.failed`, or the thrown error's own `status`). It may
 * be async: a promise it returns is awaited before the body is parsed (at most
 * `verifyTimeout`), and its rejection refuses the request as a throw does.
 * `encoding` is the charset the body will be decoded with (json, text, urlencoded), or null
 * for the raw parser, which decodes nothing.
 *
 * Declared with method syntax, so its parameters are compared bivariantly: a verify written
 * for `@types/body-parser`, `(req, res, buf, encoding: string) => void`, is accepted.
 */
export type VerifyFunction<Encoding extends string | null = string | null> = {
  verify(req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: Encoding): void;
}['verify'];

/**
 * `verify` under a parser's `read`: the same function, whose `res` is the response given as the
 * `res` option (or Express's `req.res`), undefined when there is none.
 */
export type ReadVerifyFunction<Encoding extends string | null = string | null> = {
  verify(
    req: IncomingMessage,
    res: ServerResponse | undefined,
    buf: Buffer,
    encoding: Encoding,
  ): void;
}['verify'];

/**
 * A validator in the Standard Schema v1 shape (https://standardschema.dev), which zod (3.24 and
 * later), valibot (1 and later) and arktype (2 and later) schemas have: everything lives under
 * the `~standard` key, so it never clashes with a library's own API. Declared here from the
 * specification, type only: httpware depends on no schema library.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** What a schema offers under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the specification: 1. */
    readonly version: 1;
    /** The library that made the schema (`'zod'`, `'valibot'`, `'arktype'`, ...). */
    readonly vendor: string;
    /** Checks a value: the output (defaults and transforms applied) or the issues. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Only for type inference: never read at runtime. */
    readonly types?: Types<Input, Output> | undefined;
  }

  export type Result<Output> = SuccessResult<Output> | FailureResult;

  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }

  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }

  export interface Issue {
    readonly message: string;
    /** The keys from the root to the value, each a key or an object holding it. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  export interface PathSegment {
    readonly key: PropertyKey;
  }

  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }

  /** The type a schema accepts. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['input'];

  /** The type a schema gives once it has validated a value: what `req.body` becomes. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['output'];
}

/** Options every parser takes. All optional; bad values throw a TypeError at creation. */
export interface ParserOptions {
  /** Inflate gzip, deflate, br (and zstd where Node has it) bodies; false refuses them (415). */
  inflate?: boolean | undefined;
  /** Largest body, after inflation: bytes, or a size string such as `'100kb'`. Default 100kb. */
  limit?: number | string | undefined;
  /**
   * Media types to parse: an extension (`'json'`), a type (`'application/json'`), a wildcard
   * (`'*\/*'`, `'application/*'`, `'*\/json'`, `'application/*+json'`, `'+json'`), a list, or a
   * function of the request.
   */
  type?: string | readonly string[] | TypeFunction | undefined;
  /** Checks the raw body before it is parsed, e.g. a signature; throw to refuse. */
  verify?: VerifyFunction | undefined;
  /**
   * Keep the exact bytes received (after inflation) as `req.rawBody`, a Buffer, for signature
   * checks such as a webhook's HMAC. Default false.
   */
  rawBody?: boolean | undefined;
  /**
   * Longest wait, in milliseconds, for a promise `verify` returned (default 10000); one that has
   * not settled by then is a 500 `entity.verify.timeout`.
   */
  verifyTimeout?: number | undefined;
  /**
   * Longest time, in milliseconds, the body may take to arrive, from the start of its reading
   * to its last byte; one still coming then is a 408 `request.timeout` and its rest is not
   * read. 0: no bound. Default: none for a Node request (the server's `requestTimeout` bounds
   * it), 60000 for a Web `Request` given to `read` (a runtime may never end a trickled body).
   */
  bodyTimeout?: number | undefined;
  /**
   * Validates the parsed body with any Standard Schema v1 validator (zod, valibot, arktype, ...):
   * its output becomes `req.body` (or what `read` resolves to); issues are a 422
   * `entity.validation.failed`.
   */
  schema?: StandardSchemaV1 | undefined;
  /**
   * What each issue of a 422 `entity.validation.failed` says beside its path. `'generic'` (the
   * default): `invalid value`, a fixed text that never holds a submitted value. `'validator'`:
   * the validator's own message, with the value at the issue's path cut out of it when that
   * value is a string, number, boolean or null: best effort only, as a validator may print a
   * value it transformed first, an object, or another branch's value (a union's).
   */
  issueMessages?: 'generic' | 'validator' | undefined;
  /**
   * Longest wait, in milliseconds, for a schema's asynchronous validation (default 10000); one
   * that has not settled by then is a 500 `entity.validation.timeout`.
   */
  schemaTimeout?: number | undefined;
  /**
   * Sets `req.body` to a new `{}` when the parser finds it `undefined` (before anything else:
   * so also without a body, for another type, or for a request already read), as body-parser
   * 1.x (Express 4's `express.json()` and the others) did, for code that reads `req.body.x`
   * unguarded. Default false: `req.body` stays `undefined`, as with body-parser 2. The
   * middleware's only: `read` leaves `req.body` alone.
   */
  legacyEmptyBody?: boolean | undefined;
}

/** What the JSON parser does with `__proto__` and `constructor.prototype` keys. */
export type ProtoPoisoningAction = 'error' | 'remove' | 'ignore';

export interface JsonOptions extends ParserOptions {
  /** Checks the raw body before it is parsed; `encoding` is the body's charset. */
  verify?: VerifyFunction<string> | undefined;
  /**
   * Passed to `JSON.parse` as its second argument, and typed as `JSON.parse` types it (`value`
   * is `any`), so a reviver written for `JSON.parse` or `@types/body-parser` fits unchanged.
   */
  // biome-ignore lint/suspicious/noExplicitAny: JSON.parse's own reviver type; `unknown` would refuse revivers written against it
  reviver?: ((this: any, key: string, value: any) => any) | undefined;
  /**
   * Parses the decoded text instead of `JSON.parse` (to keep 64-bit integers exact, say). Strict
   * mode and the prototype-key protection apply to it as to `JSON.parse`; what it throws is a
   * 400 `entity.parse.failed`. Not together with `reviver`.
   */
  parse?: ((text: string) => unknown) | undefined;
  /** Only objects and arrays at the top level (default true). */
  strict?: boolean | undefined;
  /**
   * `'error'` (default): refuse bodies with `__proto__` or `constructor.prototype` keys (400
   * `entity.prototype.forbidden`); `'remove'`: delete those keys; `'ignore'`: keep them, as
   * body-parser does.
   */
  onProtoPoisoning?: ProtoPoisoningAction | undefined;
}

export type RawOptions = ParserOptions;

export interface TextOptions extends ParserOptions {
  /** Checks the raw body before it is decoded; `encoding` is the body's charset. */
  verify?: VerifyFunction<string> | undefined;
  /** Charset when the Content-Type has none (default `'utf-8'`). */
  defaultCharset?: string | undefined;
}

export interface UrlencodedOptions extends ParserOptions {
  /** Checks the raw body before it is parsed; `encoding` is the body's charset. */
  verify?: VerifyFunction<string> | undefined;
  /** Rich nesting with the `qs` grammar (`a[b][]=c`); false: flat keys (default false). */
  extended?: boolean | undefined;
  /** Most parameters in one body (default 1000); more is a 413 `parameters.too.many`. */
  parameterLimit?: number | undefined;
  /** Charset when the Content-Type has none: `'utf-8'` (default) or `'iso-8859-1'`. */
  defaultCharset?: 'utf-8' | 'iso-8859-1' | undefined;
  /** Let a `utf8=✓` form field choose the charset (default false). */
  charsetSentinel?: boolean | undefined;
  /** Decode `&#...;` numeric entities in iso-8859-1 forms (default false). */
  interpretNumericEntities?: boolean | undefined;
  /** Deepest nesting with `extended` (default 32); deeper is a 400. */
  depth?: number | undefined;
}

/**
 * The middleware a parser created with a `schema` returns. Its second signature tells Express
 * (4 and 5) the type of `req.body` in the handlers after it on the same route: the schema's
 * output. Called from node:http, the first signature takes any request.
 */
export interface ValidatingMiddleware<Body> {
  (req: IncomingMessage, res: ServerResponse, next: Next): void;
  (req: IncomingMessage & { body: Body }, res: ServerResponse, next: Next): void;
}

/** What a schema gives: its output type. */
type Output<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

/**
 * Options with a schema of type `S`. `schema` is left out of `Options` first: intersected with
 * the declared `StandardSchemaV1`, an arktype schema's type is too deep for the compiler.
 */
type WithSchema<Options, S> = Omit<Options, 'schema' | 'legacyEmptyBody'> & {
  schema: S;
  /** Not with a schema: the `{}` it sets would not be the schema's output. */
  legacyEmptyBody?: false | undefined;
};

/**
 * What a parser's `read` takes beside the parser's own options: `verify` typed for a call that
 * may have no response, and the response itself.
 */
export interface ReadOptions<Encoding extends string | null = string | null> {
  /** Checks the raw body before it is parsed; `res` is the `res` option, if any. */
  verify?: ReadVerifyFunction<Encoding> | undefined;
  /**
   * The response to this request (default: Express's `req.res`, when there is one). `verify`
   * receives it, and a body given up on after an error closes the connection once the
   * response is sent, as with the middleware.
   */
  res?: ServerResponse | undefined;
}

/**
 * A Web `Request` as a parser's `read` reads it: what undici's (Node's `fetch`, srvx,
 * @hono/node-server), Bun's, Deno's and workerd's Requests all have. Declared structurally, so
 * each runtime's own `Request` type fits.
 */
export interface WebRequest {
  readonly headers: { get(name: string): string | null };
  /** null: the request has no body (read as an empty one). */
  readonly body: WebRequestBody | null;
  readonly bodyUsed: boolean;
  /** Aborted when the client goes away (a body cut short is then a 400 `request.aborted`). */
  readonly signal?: WebAbortSignal | undefined;
}

/** The part of a Web `ReadableStream` of bytes that `read` uses. */
export interface WebRequestBody {
  readonly locked: boolean;
  getReader(): {
    read(): Promise<{ readonly done: boolean; readonly value?: unknown }>;
    cancel(reason?: unknown): Promise<void>;
  };
}

/** The part of a Web `AbortSignal` that `read` uses. */
export interface WebAbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * `verify` under `read` of a Web Request: the Request itself, no response (undefined), the
 * body's bytes (after inflation, before decoding) and the charset it will be decoded with.
 */
export type WebVerifyFunction<
  Request extends WebRequest = WebRequest,
  Encoding extends string | null = string | null,
> = {
  verify(request: Request, res: undefined, buf: Buffer, encoding: Encoding): void;
}['verify'];

/**
 * A parser's `read` options for a Web Request: the same as for a Node request, less `res`
 * (a Web handler answers with the Response it returns), `verify` given the Request.
 */
export type WebReadOptions<
  Read,
  Request extends WebRequest = WebRequest,
  Encoding extends string | null = string | null,
> = Omit<Read, 'verify' | 'res' | 'type'> & {
  /** Checks the raw body before it is parsed: `(request, undefined, buf, encoding)`. */
  verify?: WebVerifyFunction<Request, Encoding> | undefined;
  /** Media types to parse, as for a Node request; a function is given the Request. */
  type?: string | readonly string[] | ((request: Request) => unknown) | undefined;
};

/** What only the middleware does: `read` takes the rest of a parser's options. */
type MiddlewareOnly = 'verify' | 'legacyEmptyBody';

export interface JsonReadOptions extends Omit<JsonOptions, MiddlewareOnly>, ReadOptions<string> {}
export interface RawReadOptions extends Omit<RawOptions, MiddlewareOnly>, ReadOptions<null> {}
export interface TextReadOptions extends Omit<TextOptions, MiddlewareOnly>, ReadOptions<string> {}
export interface UrlencodedReadOptions
  extends Omit<UrlencodedOptions, MiddlewareOnly>,
    ReadOptions<string> {}

/**
 * One parser: called with options, it makes the middleware; its `read` reads one request's body
 * through the same pipeline and resolves to it, or rejects with the error the middleware would
 * give `next`. With a `schema`, the body is the schema's output.
 */
export interface Parser<Options, Read, Body, Encoding extends string | null = string | null> {
  <S extends StandardSchemaV1>(options: WithSchema<Options, S>): ValidatingMiddleware<Output<S>>;
  (options?: Options): ParserMiddleware;
  read<S extends StandardSchemaV1>(
    req: IncomingMessage,
    options: WithSchema<Read, S>,
  ): Promise<Output<S>>;
  read(req: IncomingMessage, options?: Read): Promise<Body>;
  /** The same for a Web `Request` (Bun, Deno, Workers, Hono, Next.js, srvx): the same errors. */
  read<R extends WebRequest, S extends StandardSchemaV1>(
    request: R,
    options: WithSchema<WebReadOptions<Read, R, Encoding>, S>,
  ): Promise<Output<S>>;
  read<R extends WebRequest>(
    request: R,
    options?: WebReadOptions<Read, R, Encoding>,
  ): Promise<Body>;
  /**
   * `read` for Web Requests with its options resolved once, now (a bad one throws its
   * TypeError here), as the middleware's are: the fast form for a fetch handler, made once
   * and called per request.
   */
  reader<R extends WebRequest, S extends StandardSchemaV1>(
    options: WithSchema<WebReadOptions<Read, R, Encoding>, S>,
  ): (request: R) => Promise<Output<S>>;
  reader<R extends WebRequest = WebRequest>(
    options?: WebReadOptions<Read, R, Encoding>,
  ): (request: R) => Promise<Body>;
}

/** `json`: the body is any JSON value (untrusted: validate it, or give a `schema`). */
export interface JsonParser extends Parser<JsonOptions, JsonReadOptions, unknown, string> {}
/** `raw`: the body is a Buffer. */
export interface RawParser extends Parser<RawOptions, RawReadOptions, Buffer, null> {}
/** `text`: the body is a string. */
export interface TextParser extends Parser<TextOptions, TextReadOptions, string, string> {}
/** `urlencoded`: the body is an object of the form's fields (untrusted). */
export interface UrlencodedParser
  extends Parser<UrlencodedOptions, UrlencodedReadOptions, unknown, string> {}

/**
 * An RFC 9457 problem document, as `toResponse` and `problemHandler` send it
 * (`application/problem+json`).
 */
export interface ProblemDocument {
  /** Always `about:blank`: the problem is what the status says (RFC 9457 sec 4.2.1). */
  readonly type: 'about:blank';
  /** The status's own phrase (`Payload Too Large`). */
  readonly title: string;
  readonly status: number;
  /** What went wrong, for a 4xx only; never a quote of the body. */
  readonly detail?: string;
  /** httpware's stable error type (`entity.too.large`, ...): absent for another error's 500. */
  readonly code?: ErrorType;
  /** For a 422 `entity.validation.failed`: where and why the body failed its schema. */
  readonly issues?: readonly ValidationIssue[];
}

/** The Express / Connect error middleware `problemHandler()` returns. */
export type ProblemHandler = (
  err: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: Next,
) => void;

/** The parsers object, `httpware/parsers`. */
export interface Parsers {
  /**
   * Calling the object itself throws, as calling body-parser 2's module does: the generic
   * `bodyParser()` was split into the four parsers below.
   */
  (): never;
  /** Parses JSON bodies into `req.body` (an untrusted value: validate it, or give a `schema`). */
  readonly json: JsonParser;
  /** Reads bodies as a Buffer into `req.body`. */
  readonly raw: RawParser;
  /** Reads bodies as a string into `req.body`. */
  readonly text: TextParser;
  /** Parses HTML form bodies into an object in `req.body`. */
  readonly urlencoded: UrlencodedParser;
  /** A parser error as a Web `Response` (`application/problem+json`); anything else a 500. */
  readonly toResponse: (err: unknown) => Response;
  /** An Express / Connect error handler answering as `toResponse` does. */
  readonly problemHandler: () => ProblemHandler;
}

/**
 * A body as it came from the client. The client chose every byte, so a body that should be a
 * `T` may miss any property or have any type in it: each property is `unknown` until checked.
 */
export type Untrusted<T> = [T] extends [readonly unknown[]]
  ? readonly unknown[]
  : [T] extends [object]
    ? { readonly [K in keyof T]?: unknown }
    : unknown;

/**
 * A request after a parser ran. `body` is undefined when no parser matched, and otherwise
 * untrusted: validate it (by hand or with a schema library) to get a `T`, e.g. with a type
 * guard `(body: unknown) => body is T`.
 */
export type RequestWithBody<T = unknown> = IncomingMessage & {
  body?: Untrusted<T> | undefined;
  /** The exact body bytes, when the parser ran with `rawBody: true`. */
  rawBody?: Buffer | undefined;
};

/** A request whose body has been validated as a `T`. */
export type RequestWithValidatedBody<T> = IncomingMessage & { body: T; rawBody?: Buffer };
