// The one registry of every error kind httpware raises, and the one base class they share.
//
// Each kind has a stable `type` (match on it, never on the message), an HTTP status, whether
// its message may be shown to the client (`expose`, true for 4xx as in `http-errors`), and a
// message template whose `{name}` parts come from the error's details. Errors carry `status`
// and `statusCode` and `expose`, so `http-errors`' `isHttpError`, Express's final handler and
// Connect's treat them like any HTTP error.

import { STATUS_CODES } from 'node:http';

interface KindSpec {
  readonly status: number;
  readonly expose: boolean;
  readonly message: string;
}

function kind(status: number, message: string): KindSpec {
  return Object.freeze({ status, expose: status < 500, message });
}

/** Every error kind, keyed by its stable `type`. Frozen: the registry is public contract. */
export const errorKinds = Object.freeze({
  'charset.unsupported': kind(415, 'unsupported charset "{CHARSET}"'),
  'encoding.unsupported': kind(415, 'unsupported content encoding "{encoding}"'),
  'entity.inflate.failed': kind(400, '{reason}'),
  'entity.parse.failed': kind(400, '{reason}'),
  'entity.prototype.forbidden': kind(400, 'forbidden prototype property "{key}" in JSON body'),
  'entity.too.large': kind(413, 'request entity too large'),
  'entity.validation.failed': kind(422, 'invalid request body'),
  'entity.validation.threw': kind(500, 'the schema threw'),
  'entity.validation.timeout': kind(500, 'the schema did not settle within {timeout} ms'),
  'entity.verify.failed': kind(403, '{reason}'),
  'entity.verify.timeout': kind(500, 'verify did not settle within {timeout} ms'),
  'media.type.unsupported': kind(415, 'unsupported media type "{mediaType}"'),
  'parameters.too.many': kind(413, 'too many parameters'),
  'querystring.parse.rangeError': kind(400, 'The input exceeded the depth'),
  'request.aborted': kind(400, 'request aborted'),
  'request.size.invalid': kind(400, 'request size did not match content length'),
  'request.timeout': kind(408, 'the body did not arrive within {timeout} ms'),
  'stream.encoding.set': kind(500, 'stream encoding should not be set'),
  'stream.not.readable': kind(500, 'stream is not readable'),
} as const satisfies Record<string, KindSpec>);

/**
 * One reason a body failed its schema, as `entity.validation.failed` reports it: where (the keys
 * from the body's root to the value, `[]` for the body itself) and why (the validator's message,
 * with the rejected value cut out of it; see src/parsers/schema.ts).
 */
export interface ValidationIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The stable `type` of every error httpware raises; `err.type` narrows on it. */
export type ErrorType = keyof typeof errorKinds;

/** The extra properties each kind carries, beside `status`, `statusCode`, `expose`, `type`. */
export interface ErrorDetails {
  'charset.unsupported': { readonly charset: string };
  'encoding.unsupported': { readonly encoding: string; readonly charset?: string };
  'entity.inflate.failed': Record<never, never>;
  'entity.parse.failed': { readonly body: string };
  'entity.prototype.forbidden': {
    readonly body: string;
    readonly key: '__proto__' | 'constructor.prototype';
  };
  'entity.too.large': {
    readonly limit: number;
    readonly length?: number;
    readonly expected?: number;
    readonly received?: number;
  };
  'entity.validation.failed': { readonly issues: readonly ValidationIssue[] };
  'entity.validation.threw': Record<never, never>;
  'entity.validation.timeout': { readonly timeout: number };
  'entity.verify.failed': { readonly body: Buffer | string };
  'entity.verify.timeout': { readonly timeout: number };
  'media.type.unsupported': { readonly mediaType: string };
  'parameters.too.many': { readonly body: string };
  'querystring.parse.rangeError': { readonly body: string };
  'request.aborted': {
    readonly code: 'ECONNABORTED';
    readonly expected: number | null;
    readonly length: number | null;
    readonly received: number;
  };
  'request.size.invalid': {
    readonly expected: number;
    readonly length: number;
    readonly received: number;
  };
  'request.timeout': { readonly timeout: number; readonly received: number };
  'stream.encoding.set': Record<never, never>;
  'stream.not.readable': Record<never, never>;
}

/** One httpware error of the given kind, with that kind's extra properties. */
export type HttpwareErrorOf<T extends ErrorType> = HttpwareError<T> & ErrorDetails[T];

/** Any httpware error; a discriminated union on `type`. */
export type AnyHttpwareError = { [T in ErrorType]: HttpwareErrorOf<T> }[ErrorType];

// Errors are recognised by a brand rather than by their prototype chain, so a JSON parse
// failure can be both an HttpwareError and a SyntaxError (apps test `err instanceof
// SyntaxError && 'body' in err`, a body-parser idiom).
const branded = new WeakSet<object>();

interface InitOptions {
  message?: string | undefined;
  status?: number | undefined;
  cause?: unknown;
}

function format(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

function init(error: Error, type: ErrorType, details: object, options: InitOptions): void {
  const status = validStatus(options.status) ?? errorKinds[type].status;
  Object.assign(error, { status, statusCode: status, expose: status < 500, type }, details);
  branded.add(error);
}

function messageOf(type: ErrorType, details: object, options: InitOptions): string {
  if (options.message !== undefined) return options.message;
  const values: Record<string, unknown> = { ...details };
  if (typeof values.charset === 'string') values.CHARSET = values.charset.toUpperCase();
  return format(errorKinds[type].message, values);
}

/** A status `http-errors` would keep: a 4xx/5xx, or another code Node knows. */
export function validStatus(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  if ((value >= 400 && value < 600) || STATUS_CODES[value] !== undefined) return value;
  return undefined;
}

/** The base class of every httpware error. */
export class HttpwareError<T extends ErrorType = ErrorType> extends Error {
  declare readonly type: T;
  declare readonly status: number;
  declare readonly statusCode: number;
  declare readonly expose: boolean;

  constructor(type: T, details: ErrorDetails[T], options: InitOptions = {}) {
    // The message is known before super(), so the stack trace starts with it.
    super(
      messageOf(type, details, options),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    init(this, type, details, options);
  }

  // The predicate makes `err instanceof HttpwareError` narrow `err` to the union of every kind,
  // so `err.type` is a stable type and a check on it narrows the details.
  static override [Symbol.hasInstance](value: unknown): value is AnyHttpwareError {
    return typeof value === 'object' && value !== null && branded.has(value);
  }
}
Object.defineProperty(HttpwareError.prototype, 'name', {
  value: 'HttpwareError',
  writable: true,
  configurable: true,
});

/**
 * A JSON body that failed to parse: an HttpwareError of type `entity.parse.failed` that is also
 * a `SyntaxError`, as body-parser's was.
 */
export class HttpwareSyntaxError extends SyntaxError {
  declare readonly type: 'entity.parse.failed';
  declare readonly status: number;
  declare readonly statusCode: number;
  declare readonly expose: boolean;
  declare readonly body: string;

  constructor(message: string, body: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    init(this, 'entity.parse.failed', { body }, { message });
  }
}

/** Creates the error of the given kind; `options.message` replaces the template. */
export function createError<T extends ErrorType>(
  type: T,
  details: ErrorDetails[T],
  options: InitOptions = {},
): HttpwareErrorOf<T> {
  return new HttpwareError(type, details, options) as HttpwareErrorOf<T>;
}

/** True for any error httpware raised; narrows to the union discriminated on `type`. */
export function isHttpwareError(value: unknown): value is AnyHttpwareError {
  return typeof value === 'object' && value !== null && branded.has(value);
}
