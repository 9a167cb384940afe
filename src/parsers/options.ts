// Public options -> one resolved, fully-required internal object, built once when a parser is
// created. Bad values throw a TypeError then, with body-parser's messages, never per request.
// The caller's object is only read, never kept or changed.

import { parseBytes } from './bytes.js';
import { compileTypeMatcher } from './media-type.js';
import type {
  JsonOptions,
  ParserOptions,
  ProtoPoisoningAction,
  StandardSchemaV1,
  TypeFunction,
  UrlencodedOptions,
  VerifyFunction,
} from './types.js';

export interface ResolvedOptions {
  readonly inflate: boolean;
  readonly limit: number;
  readonly verify: VerifyFunction | null;
  readonly defaultCharset: string;
  readonly rawBody: boolean;
  /** The `type` option, or the parser's default type when it is absent (or falsy). */
  readonly type: unknown;
  /** The `type` option when it is a function. */
  readonly typeFunction: TypeFunction | null;
  /** The `type` option when it is not a function, compiled. */
  readonly matchesType: (mediaType: string | null) => boolean;
  /** The longest wait for a promise `verify` returned, in ms. */
  readonly verifyTimeout: number;
  /** The longest time a body may take to arrive, in ms (0: none); null: the door's default. */
  readonly bodyTimeout: number | null;
  /** The schema's `~standard` properties, read once (valibot makes a new object per read). */
  readonly schema: StandardSchemaV1.Props | null;
  /** The longest wait for a schema's asynchronous validation, in ms. */
  readonly schemaTimeout: number;
  /** Set an `undefined` `req.body` to `{}`, as body-parser 1.x did (the middleware only). */
  readonly legacyEmptyBody: boolean;
  /** Whether a 422's issues carry the validator's messages (`issueMessages: 'validator'`). */
  readonly validatorMessages: boolean;
}

export interface ResolvedJsonOptions {
  readonly reviver: JsonOptions['reviver'];
  /** The `parse` option: the application's JSON parser, or null for JSON.parse. */
  readonly parse: ((text: string) => unknown) | null;
  readonly strict: boolean;
  readonly onProtoPoisoning: ProtoPoisoningAction;
}

export interface ResolvedUrlencodedOptions {
  readonly extended: boolean;
  readonly parameterLimit: number;
  readonly charsetSentinel: boolean;
  readonly interpretNumericEntities: boolean;
  readonly depth: number;
}

type Loose<T> = { readonly [K in keyof T]?: unknown };

function view<T>(options: T | undefined): Loose<T> {
  return (typeof options === 'object' && options !== null ? options : {}) as Loose<T>;
}

/** The 100kb default of body-parser. */
const DEFAULT_LIMIT = 100 * 1024;

/** How long a promise of the application's (`verify`, a schema) is waited for by default. */
export const DEFAULT_WAIT_MS = 10_000;
/** setTimeout's largest delay; a longer one fires at once, with a TimeoutOverflowWarning. */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** A timeout option in milliseconds: a positive number setTimeout can wait for. */
function waitOption(name: string, value: unknown): number {
  if (value === undefined) return DEFAULT_WAIT_MS;
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_WAIT_MS)) {
    throw new TypeError(`option ${name} must be a number of milliseconds from 1 to ${MAX_WAIT_MS}`);
  }
  return value;
}

/** The `bodyTimeout` option: milliseconds setTimeout can wait for, or 0 for no bound. */
function bodyTimeoutOption(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_WAIT_MS)) {
    throw new TypeError(
      `option bodyTimeout must be a number of milliseconds from 0 (no bound) to ${MAX_WAIT_MS}`,
    );
  }
  return value;
}

/**
 * The `schema` option: anything with `~standard.validate` (arktype's types are functions, so a
 * function qualifies too). Its `~standard` properties are read once, here.
 */
function schemaOption(value: unknown): StandardSchemaV1.Props | null {
  if (value === undefined || value === null) return null;
  const props =
    (typeof value === 'object' || typeof value === 'function') &&
    (value as Partial<StandardSchemaV1>)['~standard'];
  if (typeof props !== 'object' || props === null || typeof props.validate !== 'function') {
    throw new TypeError('option schema must be a Standard Schema (with ~standard.validate)');
  }
  return props;
}

function issueMessagesOption(value: unknown): 'generic' | 'validator' {
  if (value === undefined) return 'generic';
  if (value !== 'generic' && value !== 'validator') {
    throw new TypeError('option issueMessages must be "generic" or "validator"');
  }
  return value;
}

export function resolveOptions(
  options: (ParserOptions & { defaultCharset?: string | undefined }) | undefined,
  defaultType: string,
): ResolvedOptions {
  const o = view(options);
  const limit = o.limit === undefined || o.limit === null ? DEFAULT_LIMIT : parseBytes(o.limit);
  if (limit === null) throw new TypeError(`option limit "${String(o.limit)}" is invalid`);
  // body-parser treats every falsy `verify` and `type` as absent.
  const verify = o.verify || null;
  if (verify !== null && typeof verify !== 'function') {
    throw new TypeError('option verify must be function');
  }
  const type = o.type || defaultType;
  const typeFunction = typeof type === 'function' ? (type as TypeFunction) : null;
  return {
    inflate: o.inflate !== false,
    limit,
    verify: verify as VerifyFunction | null,
    defaultCharset: String(o.defaultCharset || 'utf-8'),
    rawBody: o.rawBody === true,
    type,
    typeFunction,
    matchesType: typeFunction === null ? compileTypeMatcher(type) : () => false,
    verifyTimeout: waitOption('verifyTimeout', o.verifyTimeout),
    bodyTimeout: bodyTimeoutOption(o.bodyTimeout),
    schema: schemaOption(o.schema),
    schemaTimeout: waitOption('schemaTimeout', o.schemaTimeout),
    legacyEmptyBody: legacyEmptyBodyOption(o.legacyEmptyBody, o.schema),
    validatorMessages: issueMessagesOption(o.issueMessages) === 'validator',
  };
}

/**
 * Strictly a boolean: a string such as `'false'` would turn the option on, which changes what
 * every handler after the parser finds in `req.body`.
 */
function legacyEmptyBodyOption(value: unknown, schema: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError('option legacyEmptyBody must be a boolean');
  // The `{}` it sets was never validated, where a schema's middleware promises its output.
  if (value && schema !== undefined && schema !== null) {
    throw new TypeError('option legacyEmptyBody cannot be used with option schema');
  }
  return value;
}

const PROTO_ACTIONS: readonly unknown[] = ['error', 'remove', 'ignore'];

export function resolveJsonOptions(options: JsonOptions | undefined): ResolvedJsonOptions {
  const o = view(options);
  const onProtoPoisoning = o.onProtoPoisoning ?? 'error';
  if (!PROTO_ACTIONS.includes(onProtoPoisoning)) {
    throw new TypeError('option onProtoPoisoning must be "error", "remove" or "ignore"');
  }
  // JSON.parse ignores a reviver that is not a function, and so does body-parser.
  const reviver = typeof o.reviver === 'function' ? o.reviver : undefined;
  const parse = o.parse ?? null;
  if (parse !== null && typeof parse !== 'function') {
    throw new TypeError('option parse must be function');
  }
  // Which of the two would apply is anyone's guess: a reviver would be silently dropped.
  if (parse !== null && reviver !== undefined) {
    throw new TypeError('option parse cannot be used with option reviver');
  }
  return {
    reviver: reviver as JsonOptions['reviver'],
    parse: parse as ResolvedJsonOptions['parse'],
    strict: o.strict !== false,
    onProtoPoisoning: onProtoPoisoning as ProtoPoisoningAction,
  };
}

export function resolveUrlencodedOptions(
  options: UrlencodedOptions | undefined,
  common: ResolvedOptions,
): ResolvedUrlencodedOptions {
  const o = view(options);
  if (common.defaultCharset !== 'utf-8' && common.defaultCharset !== 'iso-8859-1') {
    throw new TypeError('option defaultCharset must be either utf-8 or iso-8859-1');
  }
  const extended = Boolean(o.extended);
  // Number() is the coercion body-parser's isNaN() applies.
  let parameterLimit = o.parameterLimit === undefined ? 1000 : Number(o.parameterLimit);
  if (Number.isNaN(parameterLimit) || parameterLimit < 1) {
    throw new TypeError('option parameterLimit must be a positive number');
  }
  if (Number.isFinite(parameterLimit)) parameterLimit = Math.trunc(parameterLimit);
  const depth = extended ? (o.depth === undefined ? 32 : o.depth) : 0;
  if (Number.isNaN(Number(depth)) || Number(depth) < 0) {
    throw new TypeError('option depth must be a zero or a positive number');
  }
  return {
    extended,
    parameterLimit,
    charsetSentinel: o.charsetSentinel === true,
    interpretNumericEntities: o.interpretNumericEntities === true,
    // qs reads `false` as 0 and any other depth that is not a number (null, '3') as its own
    // default, 5; kept so.
    depth: typeof depth === 'number' || depth === false ? Number(depth) : 5,
  };
}
