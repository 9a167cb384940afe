// JSON text for log lines. Every string goes through `JSON.stringify` (quotes, backslashes, C0
// controls and lone surrogates escaped) and then has DEL, C1 controls, U+2028 and U+2029
// escaped too, so no byte sequence a client sends can end a line, forge one, or reach a
// terminal raw. Strings that need none of it (most logged values) skip both steps.

/** What `JSON.stringify` leaves raw but a line must not carry (see the file's header). */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/;
const RAW_IN_JSON_ALL = /[\u007f-\u009f\u2028\u2029]/g;

function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function safeJson(json: string): string {
  return RAW_IN_JSON.test(json) ? json.replace(RAW_IN_JSON_ALL, unicodeEscape) : json;
}

/**
 * Characters a string cannot carry into a line as they are: what JSON requires escaped (`"`,
 * `\`, C0), what a line must not carry raw (DEL, C1, U+2028, U+2029), and surrogates (lone
 * ones must be escaped; pairs are rare enough in logged values to take the slow path).
 */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u007f-\u009f\u2028\u2029\ud800-\udfff]/;

/** The characters `NEEDS_ESCAPE` finds, as a character class's source, for tests made of several. */
export const NEEDS_ESCAPE_CLASS = NEEDS_ESCAPE.source;

/** A string as JSON text. Most logged values need no escape and skip `JSON.stringify`. */
export function encodeString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? safeJson(JSON.stringify(value)) : `"${value}"`;
}

/**
 * A string as JSON text without its quotes: the string itself when it needs no escape. Pieces
 * escaped this way and joined with a character that needs none (a space) give the same text
 * as the joined string escaped whole, since every escape is of one character (a lone
 * surrogate's too: a pair cannot straddle the separator).
 */
export function encodeInner(value: string): string {
  return NEEDS_ESCAPE.test(value) ? safeJson(JSON.stringify(value)).slice(1, -1) : value;
}

/** A value as JSON text, or undefined when it has none (`undefined`, NaN, a function). */
export function encodeJsonValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return encodeString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return String(value);
    case 'object': {
      if (value === null) return 'null';
      // Arrays and objects a field function returned. Throws on cycles and BigInts inside,
      // which leaves the field out like any other throwing field.
      const json = JSON.stringify(value) as string | undefined;
      return json === undefined ? undefined : safeJson(json);
    }
    default:
      return undefined;
  }
}

/** Sets `key` on a new object, even `__proto__` (as an own property, not the prototype). */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}
