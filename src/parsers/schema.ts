// The `schema` option's report: a Standard Schema's issues -> the 422 `entity.validation.failed`,
// whose `issues` the client is shown (it is a 4xx, `expose` is true) and whose message ends up
// in logs. Neither may carry a value the client sent, and the report is bounded in bytes:
//
// - The message is httpware's: the number of issues and where the first is (`invalid request
//   body: 3 issues, first at items.0.name`). It is also what a log line says of the error.
// - Each issue is its path and, by default, the fixed text `invalid value`. A validator's own
//   message cannot be trusted to leave values out: arktype's union of objects prints both
//   branches' values (`a must be "x" (was "…") or b must be "y" (was "…")`), a transform
//   before a check prints what it made of the value (a trimmed, lowercased string), a custom
//   message may print anything. `issueMessages: 'validator'` opts in to them, with the value
//   found at the issue's path cut out when it is a string, a number, a boolean or null: best
//   effort, never a stringify of a subtree (which made 100 issues in a 99-deep body cost
//   seconds), and a message longer than MAX_VALIDATOR_MESSAGE is not searched but replaced.
// - The path is made of keys only. A Standard Schema path segment may be an object holding its
//   key (valibot's also hold the input and the value): only the key is kept; a symbol becomes
//   its description. Keys of a record schema are the client's own: each is cut at MAX_KEY
//   characters and its control characters (C0, DEL, C1, U+2028, U+2029, lone surrogates, which
//   a log line or a JSON encoder would escape into six bytes each) and its invisible or
//   reordering ones (zero-width, bidi) become U+FFFD; a path is
//   cut at MAX_PATH keys. Only the first MAX_PATH segments are read, by index: a path that
//   never ends (a Proxy, a giant sparse array) cannot hold the request.
// - At most MAX_ISSUES issues are kept (a 1 MB array of wrong items can make a million), and
//   no more than fit in MAX_ISSUES_BYTES as JSON: the largest single issue (32 keys of 64
//   characters of 3 bytes, a 200-character message) is under 7 KiB, so the first always fits.
//
// Whatever the schema's result is made of (getters, a Proxy, a key whose `toString` throws),
// what it throws while it is read here is the schema's fault: read-body.ts makes it a 500
// `entity.validation.threw`.

import { createError, type HttpwareErrorOf, type ValidationIssue } from '../errors.js';
import { setLogText } from '../failures.js';
import type { StandardSchemaV1 } from './types.js';

const MAX_ISSUES = 100;
/** Most bytes of the `issues` list as JSON (UTF-8). */
const MAX_ISSUES_BYTES = 8 * 1024;
const MAX_PATH = 32;
const MAX_KEY = 64;
const MAX_MESSAGE = 200;
/** A validator's message longer than this is not searched for values but replaced. */
const MAX_VALIDATOR_MESSAGE = 64 * 1024;
/** What an issue says by default: nothing of the value, nothing of the validator's text. */
const GENERIC_ISSUE = 'invalid value';
/** A string this long or longer is cut where it stands alone in a message, not only quoted. */
const MIN_BARE = 4;
const CUT = '…';
/**
 * What a line or a JSON encoder would escape (C0, DEL, C1, U+2028/2029, lone surrogates), and
 * what would make a key read as another where it is shown (zero-width characters, bidi marks,
 * embeddings, overrides and isolates, the BOM: a key can look reversed, "Trojan Source").
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The 422 for a schema's failure result, `input` being the value that was validated; with
 * `validatorMessages`, each issue carries the validator's message (best effort, see above).
 */
export function validationFailed(
  issues: unknown,
  input: unknown,
  validatorMessages: boolean,
): HttpwareErrorOf<'entity.validation.failed'> {
  const list: readonly unknown[] = Array.isArray(issues) ? issues : [];
  const length: unknown = list.length;
  const count = typeof length === 'number' ? length : 0;
  const kept: ValidationIssue[] = [];
  // Many issues can share one value (the body itself, say): it is looked at once.
  const prints = validatorMessages ? new Map<unknown, Printed | null>() : null;
  let bytes = 2; // the list's brackets
  for (let i = 0; i < count && i < MAX_ISSUES; i++) {
    const issue = report(list[i], input, prints);
    const size = issueBytes(issue) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > MAX_ISSUES_BYTES) break;
    bytes += size;
    kept.push(issue);
  }
  const message = summary(count, kept[0]);
  const err = createError('entity.validation.failed', { issues: kept }, { message });
  setLogText(err, message);
  return err;
}

/** `{"path":[],"message":}`: the JSON of an issue around its keys and its message. */
const ISSUE_FRAME_BYTES = 22;

/**
 * The bytes of an issue as JSON, counted rather than stringified. Its keys and message hold no
 * character JSON escapes into six bytes (clean replaced them), so each string costs its UTF-8
 * bytes, two quotes, and one byte more per `"` or `\`.
 */
export function issueBytes({ path, message }: ValidationIssue): number {
  let bytes = ISSUE_FRAME_BYTES + stringBytes(message) + Math.max(path.length - 1, 0);
  for (const key of path) bytes += typeof key === 'number' ? String(key).length : stringBytes(key);
  return bytes;
}

function stringBytes(text: string): number {
  let escaped = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) escaped++;
  }
  return Buffer.byteLength(text) + 2 + escaped;
}

/**
 * `invalid request body: 3 issues, first at items.0.name`: counts and keys, no value; at most
 * 300 characters, whatever the count and the path.
 */
function summary(count: number, first: ValidationIssue | undefined): string {
  if (first === undefined) return 'invalid request body';
  // Cut as a validator's message is: a path of 32 keys of 64 characters would be 2 KB.
  const where = first.path.length === 0 ? 'the body' : shorter(first.path.join('.'), MAX_MESSAGE);
  return count === 1
    ? `invalid request body: 1 issue, at ${where}`
    : `invalid request body: ${count} issues, first at ${where}`;
}

function report(
  issue: unknown,
  input: unknown,
  prints: Map<unknown, Printed | null> | null,
): ValidationIssue {
  const segments: unknown = (issue as { path?: unknown } | null | undefined)?.path;
  const path: (string | number)[] = [];
  let value = input;
  let deeper = false;
  if (Array.isArray(segments)) {
    const length: unknown = segments.length;
    const shown = typeof length === 'number' ? Math.min(length, MAX_PATH) : 0;
    for (let i = 0; i < shown; i++) {
      const key = keyOf(segments[i]);
      if (prints !== null) value = child(value, key);
      path.push(keyText(key));
    }
    deeper = shown < (length as number);
  }
  if (prints === null) return { path, message: GENERIC_ISSUE };
  const raw: unknown = (issue as { message?: unknown }).message;
  const text = typeof raw === 'string' ? raw : String(raw ?? '');
  // The value of a path deeper than the report reads is not known, and a huge message is not
  // worth searching: neither is given.
  if (deeper || text.length > MAX_VALIDATOR_MESSAGE) return { path, message: GENERIC_ISSUE };
  let form = prints.get(value);
  if (form === undefined) {
    form = printed(value);
    prints.set(value, form);
  }
  const cut = form === null ? text : cutOut(text, form);
  return { path, message: clean(shorter(cut, MAX_MESSAGE)) };
}

/** The key of a path segment: itself, or the `key` of an object segment (valibot's). */
function keyOf(segment: unknown): PropertyKey {
  const key =
    typeof segment === 'object' && segment !== null
      ? (segment as StandardSchemaV1.PathSegment).key
      : segment;
  // A key whose toString throws throws here: the schema is broken, not the body.
  return typeof key === 'number' || typeof key === 'symbol' ? key : String(key);
}

function keyText(key: PropertyKey): string | number {
  if (typeof key === 'number') return Number.isFinite(key) ? key : String(key);
  return clean(shorter(typeof key === 'symbol' ? (key.description ?? '') : key, MAX_KEY));
}

function shorter(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}${CUT}` : text;
}

/** `text` with what a line would escape replaced (a surrogate pair the cut split too). */
function clean(text: string): string {
  return text.replace(UNSAFE, '\ufffd');
}

/** The input's own property `key`, or undefined (a getter or a prototype is never reached). */
function child(value: unknown, key: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null || !hasOwn.call(value, key)) return undefined;
  return Object.getOwnPropertyDescriptor(value, key)?.value;
}

interface Printed {
  readonly text: string;
  /** Cut where it stands alone too, not only between quotes. */
  readonly bare: boolean;
  /** The string's JSON form when it differs from the string between quotes (escapes). */
  readonly json: string | undefined;
}

/** How validators print a primitive value; null for an object (not looked for). */
function printed(value: unknown): Printed | null {
  if (typeof value === 'string') {
    if (value.length === 0) return null;
    const json = JSON.stringify(value);
    return {
      text: value,
      bare: value.length >= MIN_BARE,
      json: json.length === value.length + 2 ? undefined : json,
    };
  }
  if (
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    value === null
  ) {
    return { text: String(value), bare: true, json: undefined };
  }
  return null;
}

const QUOTES = `"'\``;

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_]/u.test(char);
}

/**
 * `message` with every occurrence of the printed value replaced: its JSON form anywhere,
 * the value between a pair of the same quotes (the quotes go too), or, for a `bare` form,
 * anywhere no letter or digit touches it.
 */
function cutOut(message: string, { text, bare, json }: Printed): string {
  const source = json === undefined ? message : message.split(json).join(CUT);
  let out = '';
  let from = 0;
  for (let at = source.indexOf(text); at !== -1; at = source.indexOf(text, at + 1)) {
    if (at < from) continue;
    const before = source[at - 1];
    const after = source[at + text.length];
    const quoted = before !== undefined && QUOTES.includes(before) && after === before;
    const alone =
      !(isWordChar(text[0]) && isWordChar(before)) &&
      !(isWordChar(text[text.length - 1]) && isWordChar(after));
    if (!quoted && !(bare && alone)) continue;
    out += source.slice(from, quoted ? at - 1 : at) + CUT;
    from = at + text.length + (quoted ? 1 : 0);
  }
  return out + source.slice(from);
}
