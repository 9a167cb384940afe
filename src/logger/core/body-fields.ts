// Request body fields in a line (option `body`): the key paths the application names, read
// from the parsed `req.body` when the line is made, written as one JSON object keyed by the
// paths as named (`{"user.name":"ann","order.items":[...]}`).
//
// A body is client input and may hold credentials, so the defences are:
// - nothing is read unless named, and only a plain object (what JSON and urlencoded parsers
//   make) is read at all: a top-level array, a Buffer, a string, a class instance or any other
//   value is skipped, so a raw or text body, or one another library wrapped, never reaches a
//   line;
// - a path is walked through own properties of plain objects and arrays only, so `__proto__`,
//   `constructor` or a getter inherited from a prototype is never followed, and the named
//   paths may not name them (refused when the logger is made);
// - a key that looks like a secret (its words, see secret-names.ts, and every name of the
//   logger's `redact` lists) has its value written as the mask, whether it is named or found
//   inside a named value;
// - the object is capped in bytes (its UTF-8 JSON text, braces included) and each named value
//   in depth; the walk stops once the cap is passed, so a huge or wide body costs no more
//   than the cap; a value that would pass the cap is written as a marker;
// - every key and string is written as the JSON lines write theirs (control characters,
//   quotes, DEL, C1, U+2028/9 escaped), so nothing in a body can end or forge a line.

import { encodeString } from '../json/encode.js';
import { isOff } from './option-off.js';
import { MASK, type RedactPolicy } from './redact.js';
import { secretKeyMatcher } from './secret-names.js';

/** What a value past the byte cap is written as. */
export const TRUNCATED = '[TRUNCATED]';

/** Segments a path may not name: they lead to prototypes, not to data. */
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const DEFAULT_MAX_BYTES = 2048;
const DEFAULT_MAX_DEPTH = 3;
const MAX_FIELDS = 64;
/** Bounds of the options: a line is not the place for a body. */
const MAX_BYTES_LIMIT = 65_536;
const MAX_DEPTH_LIMIT = 16;

/** The `body` option resolved: what a line reads of `req.body`. */
export interface BodyFields {
  /**
   * The named paths, in the order given: as written, split into keys, and whether one of the
   * keys looks like a secret (`user.password`, `auth.user`: the whole value is masked).
   */
  readonly paths: readonly {
    readonly name: string;
    readonly keys: readonly string[];
    readonly masked: boolean;
  }[];
  readonly maxBytes: number;
  readonly maxDepth: number;
  /** Whether a key's value is masked. */
  readonly secret: (key: string) => boolean;
}

function boundedInteger(
  value: unknown,
  option: string,
  min: number,
  max: number,
  fallback: number,
) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`option ${option} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** The `body` option: undefined when off (absent, `null`, `false`). */
export function resolveBodyFields(option: unknown, policy: RedactPolicy): BodyFields | undefined {
  if (isOff(option)) return undefined;
  if (typeof option !== 'object' || Array.isArray(option)) {
    throw new TypeError('option body must be an object: { fields, maxBytes, maxDepth }');
  }
  const { fields, maxBytes, maxDepth, ...unknown } = option as Record<string, unknown>;
  // A misspelt cap (`maxByte`) would leave the default silently.
  const stray = Object.keys(unknown)[0];
  if (stray !== undefined) {
    throw new TypeError(
      `option body has no field ${JSON.stringify(stray)}: { fields, maxBytes, maxDepth }`,
    );
  }
  if (!Array.isArray(fields) || fields.length === 0 || fields.length > MAX_FIELDS) {
    throw new TypeError(`option body.fields must be an array of 1 to ${MAX_FIELDS} key paths`);
  }
  const secret = secretKeyMatcher([...policy.headers, ...policy.query]);
  const paths = fields.map((name: unknown) => {
    if (typeof name !== 'string') throw new TypeError('option body.fields must hold strings');
    const keys = name.split('.');
    if (keys.some((key) => key === '' || FORBIDDEN_SEGMENTS.has(key))) {
      throw new TypeError(
        `option body.fields: "${name}" is not a key path (dot-separated keys, none empty, none of __proto__, constructor, prototype)`,
      );
    }
    return { name, keys, masked: keys.some(secret) };
  });
  return {
    paths,
    maxBytes: boundedInteger(maxBytes, 'body.maxBytes', 64, MAX_BYTES_LIMIT, DEFAULT_MAX_BYTES),
    maxDepth: boundedInteger(maxDepth, 'body.maxDepth', 0, MAX_DEPTH_LIMIT, DEFAULT_MAX_DEPTH),
    secret,
  };
}

/** A plain object: what JSON.parse and urlencoded parsers make (no class instance, Buffer). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const INDEX = /^(?:0|[1-9]\d{0,8})$/;

/** The value at `keys`, through own properties only; `MISSING` when there is none. */
const MISSING = Symbol('missing');

function valueAt(body: object, keys: readonly string[]): unknown {
  let value: unknown = body;
  for (const key of keys) {
    if (Array.isArray(value)) {
      if (!INDEX.test(key) || Number(key) >= value.length) return MISSING;
      value = value[Number(key)];
    } else if (isPlainObject(value) && Object.hasOwn(value, key)) {
      value = value[key];
    } else {
      return MISSING;
    }
  }
  return value;
}

/**
 * JSON text of one value, masked and cut at `depth`, or undefined once the text grows past
 * `room` UTF-16 units (a UTF-8 text is never shorter, so past them it is past the bytes too).
 */
class ValueText {
  text = '';
  constructor(
    private readonly room: number,
    private readonly secret: (key: string) => boolean,
  ) {}

  /** Appends; false when the room is used up (the caller stops walking). */
  private add(piece: string): boolean {
    this.text += piece;
    return this.text.length <= this.room;
  }

  /** Writes `value`; false when it did not fit. `levels` is how many containers may follow. */
  write(value: unknown, levels: number): boolean {
    switch (typeof value) {
      case 'string':
        // Longer than the room, it cannot fit: not escaped whole (a megabyte string).
        return value.length > this.room ? false : this.add(encodeString(value));
      case 'number':
        return this.add(Number.isFinite(value) ? String(value) : 'null');
      case 'boolean':
        return this.add(value ? 'true' : 'false');
      case 'object':
        if (value === null) return this.add('null');
        if (Array.isArray(value)) return this.array(value, levels);
        if (isPlainObject(value)) return this.object(value, levels);
        return this.add('null');
      default:
        // undefined, a function, a symbol, a BigInt: nothing JSON would carry.
        return this.add('null');
    }
  }

  private array(value: readonly unknown[], levels: number): boolean {
    if (levels === 0) return this.add('"[Array]"');
    if (!this.add('[')) return false;
    for (let i = 0; i < value.length; i++) {
      if (i > 0 && !this.add(',')) return false;
      if (!this.write(value[i], levels - 1)) return false;
    }
    return this.add(']');
  }

  private object(value: Record<string, unknown>, levels: number): boolean {
    if (levels === 0) return this.add('"[Object]"');
    if (!this.add('{')) return false;
    let first = true;
    // Own enumerable keys only; a `__proto__` key JSON.parse made is an own key, written as
    // text like any other: no object is built, so nothing can be polluted.
    for (const key of Object.keys(value)) {
      if (!first && !this.add(',')) return false;
      first = false;
      const name = encodeString(key);
      if (!this.add(name) || !this.add(':')) return false;
      const ok = this.secret(key)
        ? this.add(encodeString(MASK))
        : this.write(value[key], levels - 1);
      if (!ok) return false;
    }
    return this.add('}');
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The named fields of `body` as JSON text (an object), or undefined when the body is not a
 * plain object or holds none of them. Never longer than `maxBytes` in UTF-8.
 */
export function bodyFieldsText(fields: BodyFields, body: unknown): string | undefined {
  // Only a plain object: not a top-level array either (`fields: ['0']` reads nothing), as the
  // docs promise; arrays are read inside it, along a path.
  if (!isPlainObject(body)) return undefined;
  const { paths, maxBytes, maxDepth, secret } = fields;
  let out = '';
  for (const { name, keys, masked } of paths) {
    const value = valueAt(body, keys);
    if (value === MISSING) continue;
    const key = `${out === '' ? '' : ','}${encodeString(name)}:`;
    // What is left for the value: the cap less the text so far, the key and the two braces.
    const room = maxBytes - byteLength(out) - byteLength(key) - 2;
    if (room < TRUNCATED.length + 2) break;
    let text: string;
    if (masked) {
      text = encodeString(MASK);
    } else {
      const writer = new ValueText(room, secret);
      const fits = writer.write(value, maxDepth) && byteLength(writer.text) <= room;
      text = fits ? writer.text : encodeString(TRUNCATED);
    }
    out += key + text;
  }
  return out === '' ? undefined : `{${out}}`;
}
