// Every string a token yields goes through `escapeLogField` before it enters a line, so a URL,
// a header, a Basic-auth user name or a custom token cannot forge a second line (CR, LF, U+2028,
// U+2029), hide text from a terminal (ESC, C1 controls) or break out of a quoted field (`"`).
// The rule is morgan 1.12.1's, byte for byte: backslash and double quote get a backslash,
// \b \f \n \r \t their two-character escapes, every other C0 control, DEL, C1 control
// (U+0080-U+009F), U+2028 and U+2029 become `\uXXXX` with four lower-case hex digits.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/;
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g;

/** The characters `escapeLogField` escapes, as a RegExp source, for tests made of several. */
export const UNSAFE_SOURCE = UNSAFE.source;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Below this length a loop over the characters finds them for fewer instructions than a call
 * of `UNSAFE.test` (callgrind: 3 characters 190 against 340, 12 about even, 24 twice the test).
 */
const SHORT = 12;

/** Whether `value` holds a character `escapeLogField` escapes. */
function hasUnsafe(value: string): boolean {
  if (value.length >= SHORT) return UNSAFE.test(value);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return true;
    if (c >= 0x7f && (c <= 0x9f || c === 0x2028 || c === 0x2029)) return true;
  }
  return false;
}

/** Escapes a token's string value for a line-oriented log. */
export function escapeLogField(value: string): string {
  // Most values need nothing: test once before building a new string.
  return hasUnsafe(value) ? value.replace(UNSAFE_ALL, escapeChar) : value;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A string with its control characters (C0, DEL, C1, U+2028, U+2029) escaped as
 * `escapeLogField` escapes them (`\n`, `\u009b`), `"` and `\` kept: for text that is not
 * written between quotes, such as an OpenTelemetry attribute, which an exporter may still
 * print to a terminal (U+009B is a one-character CSI) or a line-oriented file.
 */
export function escapeControls(value: string): string {
  return CONTROL.test(value) ? value.replace(CONTROL_ALL, escapeChar) : value;
}

/** Deeper than this, a token's value is written as its string form, escaped. */
const MAX_DEPTH = 16;

/** The arrays and objects `escapeLogValue` made: their strings are escaped already. */
const escapedCopies = new WeakSet<object>();

/** Whether `value` is a copy `escapeLogValue` made (so its string form is escaped already). */
export function isEscapedCopy(value: unknown): boolean {
  return typeof value === 'object' && value !== null && escapedCopies.has(value);
}

/** `String(value)`, or its tag for an object that has no string form (a null prototype). */
function stringForm(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function escapeNested(value: unknown, depth: number, seen: Map<object, unknown>): unknown {
  if (typeof value === 'string') return escapeLogField(value);
  if (typeof value === 'symbol' || typeof value === 'function') {
    return escapeLogField(stringForm(value));
  }
  // Numbers, booleans, bigints, null and undefined cannot carry a control character.
  if (typeof value !== 'object' || value === null) return value;
  const copied = seen.get(value);
  if (copied !== undefined) return copied;
  // A Date yields only text of its own making.
  if (value instanceof Date) return value;
  const proto = Object.getPrototypeOf(value);
  if (
    depth >= MAX_DEPTH ||
    (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
  ) {
    // A Buffer, a Map, an instance of a class: what a format string would write, escaped.
    return escapeLogField(stringForm(value));
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (let i = 0; i < value.length; i++) copy.push(escapeNested(value[i], depth + 1, seen));
    return copy;
  }
  const copy = Object.create(proto) as Record<string, unknown>;
  seen.set(value, copy);
  for (const key of Object.keys(value)) {
    // defineProperty: a key named __proto__ stays a key, as in the object given.
    Object.defineProperty(copy, escapeLogField(key), {
      value: escapeNested((value as Record<string, unknown>)[key], depth + 1, seen),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
 * A token's value as a format function receives it, escaped as a format string would write
 * it: a string escaped; an array or a plain object (Express's `req.query`, for `?x=a&x=b` or
 * `?a[b]=c`) copied with every string in it, keys included, escaped, so that the format
 * function may index, join or interpolate it and still write no raw control character; any
 * other object as its string form, escaped (a Date is kept: its text is its own). Numbers,
 * booleans and nothing stay as they are.
 */
export function escapeLogValue(value: unknown): unknown {
  if (typeof value === 'string') return escapeLogField(value);
  if (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol') {
    return value;
  }
  if (value === null) return value;
  const escaped = escapeNested(value, 0, new Map());
  if (typeof escaped === 'object' && escaped !== null) escapedCopies.add(escaped);
  return escaped;
}
