// The public types of httpware/parsers.

import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * refuses the request (403 `entity.verify.failed`, or the thrown error's own `status`).
 * `encoding` is the charset the body will be decoded with (json, text, urlencoded), or null
 * for the raw parser, which decodes nothing.
 *
 * Declared with method syntax, so its parameters are compared bivariantly: a verify written
 * for `@types/body-parser`, `(req, res, buf, encoding: string) => void`, is accepted.
 */
export type VerifyFunction<Encoding extends string | null = string | null> = {
  verify(req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: Encoding): void;
}['verify'];

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

/** The parsers object, `httpware/parsers`. */
export interface Parsers {
  /**
   * Calling the object itself throws, as calling body-parser 2's module does: the generic
   * `bodyParser()` was split into the four parsers below.
   */
  (): never;
  /** Parses JSON bodies into `req.body` (an untrusted value: validate it). */
  json(options?: JsonOptions): ParserMiddleware;
  /** Reads bodies as a Buffer into `req.body`. */
  raw(options?: RawOptions): ParserMiddleware;
  /** Reads bodies as a string into `req.body`. */
  text(options?: TextOptions): ParserMiddleware;
  /** Parses HTML form bodies into an object in `req.body`. */
  urlencoded(options?: UrlencodedOptions): ParserMiddleware;
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
