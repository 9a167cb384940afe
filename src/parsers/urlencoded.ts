// parsers.urlencoded: HTML form bodies, with body-parser 2's results for both grammars.
//
// The body is split into `key=value` pairs here, as qs's own first stage does (same
// decoding, charset sentinel, numeric entities), but with repeated keys collected in linear
// time: qs combines each repeat by copying the whole array so far, so `a&a&a...` costs O(n²).
// For the extended grammar the form is then built here for the keys forms are written with
// (nestedForm), and any other form is left to qs, which reads an already-split object exactly
// as it reads its own first stage's output (extendedGrammar). The flat grammar (body-parser's
// qs at depth 0) has so little structure that it is built here directly, which is most of its
// cost saved: a form as browsers send it (UTF-8, no brackets) in one pass over the text
// (plainForm), any other in qs's way (flatGrammar).

import qs from 'qs';
import { createError } from '../errors.js';
import { formCharsets } from './charset.js';
import { definePipeline } from './define.js';
import {
  type ResolvedUrlencodedOptions,
  resolveOptions,
  resolveUrlencodedOptions,
} from './options.js';
import type { Pipeline } from './pipeline.js';
import type { UrlencodedOptions, UrlencodedParser } from './types.js';

type Flat = Record<string, string | string[]>;
/** One grammar: a body's text (not empty), its charset and its parameter count -> `req.body`. */
type Grammar = (text: string, charset: string, count: number) => unknown;

/**
 * Two rules of qs that body-parser and co-body (koa-bodyparser's reader) set differently:
 * co-body turns `a.b` into `a[b]` (`allowDots`, kept for qs 4's users) and keeps the groups
 * past `depth` as one literal key, where body-parser refuses such a form (`strictDepth`).
 * The public `urlencoded` has body-parser's; httpware/koa's bodyParser, co-body's.
 */
export interface QsRules {
  readonly allowDots: boolean;
  readonly strictDepth: boolean;
}

const BODY_PARSER_QS: QsRules = { allowDots: false, strictDepth: true };

const FORM_TYPE = 'application/x-www-form-urlencoded';

export function urlencodedPipeline(
  options?: UrlencodedOptions,
  rules: QsRules = BODY_PARSER_QS,
): Pipeline {
  const common = resolveOptions(options, FORM_TYPE);
  const resolved = resolveUrlencodedOptions(options, common);
  const grammar = resolved.extended ? extendedGrammar(resolved, rules) : flatGrammar(resolved);
  const parameterLimit = resolved.parameterLimit;
  // What plainForm reads: the flat grammar in UTF-8, with no sentinel to look for first.
  const plain = !resolved.extended && !resolved.charsetSentinel;

  const parse = (body: string | Buffer, charset: string | null): unknown => {
    const text = body as string;
    if (text.length === 0) return {};
    if (plain && (charset === null || charset === 'utf-8')) {
      const form = plainForm(text, parameterLimit);
      if (form !== undefined) return form;
    }
    // Counted before anything is split, stopping at the limit: a body of a million `&` costs
    // one scan, not a million parameters.
    const count = countParameters(text, parameterLimit);
    if (count === undefined) throw createError('parameters.too.many', { body: text });
    return grammar(text, charset ?? 'utf-8', count);
  };

  return { options: common, format: { charsets: formCharsets, parse } };
}

export const urlencoded: UrlencodedParser = definePipeline<UrlencodedParser>(
  'urlencoded',
  (options?: UrlencodedOptions) => urlencodedPipeline(options),
);

/**
 * `extended: true`: the pairs split here (in linear time, see the top of this file), then
 * built into the form by nestedForm, or by qs where a key or a merge is one nestedForm leaves
 * out.
 */
function extendedGrammar(options: ResolvedUrlencodedOptions, rules: QsRules): Grammar {
  const { charsetSentinel, interpretNumericEntities, depth, parameterLimit } = options;
  const { allowDots, strictDepth } = rules;
  return (text, charset, count) => {
    const pairs = splitPairs(text, charset, charsetSentinel, interpretNumericEntities, {
      into: Object.create(null),
      add: addPair,
    });
    // Long arrays stay arrays (qs turns an array past its limit into an object).
    const arrayLimit = Math.max(100, count);
    // A dotted key is a group under allowDots: qs's own reading of it builds the form.
    const form =
      allowDots && hasDottedKey(pairs) ? undefined : nestedForm(pairs, depth, arrayLimit);
    if (form !== undefined) return form;
    try {
      return qs.parse(pairs as never, {
        allowDots,
        allowPrototypes: true,
        arrayLimit,
        depth,
        parameterLimit,
        strictDepth,
      });
    } catch (err) {
      if (err instanceof RangeError) {
        throw createError('querystring.parse.rangeError', { body: text });
      }
      throw err;
    }
  };
}

function hasDottedKey(pairs: Flat): boolean {
  for (const key in pairs) if (key.includes('.')) return true;
  return false;
}

type Value = string | string[];
type Node = Record<string, unknown> | unknown[];

/**
 * What qs 6 makes of the split pairs (extended grammar) for the keys forms are written with,
 * built straight into the result: `name`, `name[key]`, `name[0]` and a final `name[]`, up to
 * `depth` groups. qs builds an object per group of each key, merges it into the result with a
 * generic deep merge (two WeakMap look-ups per key it visits), then walks the whole result to
 * close the holes of sparse arrays; about half the cost of a nested form (docs/benchmarks.md).
 * undefined where a key or a merge leaves that subset, and qs then reads the whole form:
 * an empty name (`[a]`), a group inside a group, text after a group, `[]` before the last
 * group, `__proto__`, an index past the array limit, more groups than `depth` (qs's
 * strictDepth error) or than SEGMENTS, and a value meeting a container at one name (qs's
 * conflict rules). The pairs are not changed on the way (their arrays are copied), so qs reads
 * them as split.
 */
function nestedForm(pairs: Flat, depth: number, arrayLimit: number): Flat | undefined {
  const form = buildNested(pairs, depth, arrayLimit);
  // The groups of the last key read are the body's text: not kept past the request.
  segments.length = 0;
  return form;
}

function buildNested(pairs: Flat, depth: number, arrayLimit: number): Flat | undefined {
  const form: Record<string, unknown> = {};
  holey = false;
  for (const key of Object.keys(pairs)) {
    // qs skips the empty key.
    if (key === '') continue;
    const count = keySegments(key, depth, arrayLimit);
    if (count === 0) return undefined;
    const value = pairs[key] as Value;
    const leaf = typeof value === 'string' ? value : value.slice();
    if (mergeAt(form, 0, count, leaf) === FAILED) return undefined;
  }
  if (holey) compactArrays(form);
  return form as Flat;
}

// A key as qs reads it, one entry per group: an object's key (a string; the name first), an
// array index (a number) or a final `[]` (APPEND). One array, reused for every key.
const APPEND = -1;
// At most this many groups are merged here, one level of recursion each: a deeper key is left
// to qs, as before (which parses it; only thousands of levels deep, with `depth: Infinity`, does
// qs's merge overflow the stack, into body-parser's 400).
const SEGMENTS = 20;
const segments: (string | number)[] = [];
const FAILED = Symbol('failed');
// Whether an index left a hole in an array (qs then closes them all, utils.compact).
let holey = false;

/**
 * `key` into `segments`: how many, or 0 where the key is outside nestedForm's subset. A group's
 * text is an index where qs takes it for one: a non-negative integer as String writes it.
 */
function keySegments(key: string, depth: number, arrayLimit: number): number {
  let open = key.indexOf('[');
  const name = open === -1 ? key : key.slice(0, open);
  if (name === '' || name === '__proto__') return 0;
  segments[0] = name;
  let count = 1;
  while (open !== -1) {
    if (count > depth || count > SEGMENTS) return 0;
    // One pass over the group: where it closes, and whether it holds only digits (and which).
    let close = open + 1;
    let index = 0;
    let digits = true;
    for (; ; close++) {
      if (close === key.length) return 0;
      const code = key.charCodeAt(close);
      if (code === CLOSE_BRACKET) break;
      if (code === OPEN_BRACKET) return 0;
      if (code >= 0x30 && code <= 0x39) index = index * 10 + code - 0x30;
      else digits = false;
    }
    const next = close + 1 === key.length ? -1 : close + 1;
    if (next !== -1 && key.charCodeAt(next) !== OPEN_BRACKET) return 0;
    const length = close - open - 1;
    let segment: string | number;
    if (length === 0) {
      if (next !== -1) return 0;
      segment = APPEND;
    } else if (digits && (length === 1 || key.charCodeAt(open + 1) !== 0x30)) {
      if (length > 9 || index >= arrayLimit) return 0;
      segment = index;
    } else {
      const content = key.slice(open + 1, close);
      if (content === '__proto__') return 0;
      segment = content;
    }
    segments[count++] = segment;
    open = next;
  }
  return count;
}

/**
 * qs's merge(target, branch(from)), the value then at that place, or FAILED where qs would take
 * a path nestedForm leaves to it (arrayToObject, its conflict and overflow objects).
 */
function mergeAt(target: unknown, from: number, count: number, leaf: Value): unknown {
  if (from === count) {
    if (leaf === '') return target;
    if (!Array.isArray(target)) return FAILED;
    if (typeof leaf === 'string') target.push(leaf);
    else appendAll(target, leaf);
    return target;
  }
  const segment = segments[from] as string | number;
  if (typeof segment === 'string') {
    if (typeof target !== 'object' || target === null || Array.isArray(target)) return FAILED;
    const node = target as Record<string, unknown>;
    if (!hasOwn.call(node, segment)) node[segment] = branch(from + 1, count, leaf);
    else {
      const merged = mergeAt(node[segment], from + 1, count, leaf);
      if (merged === FAILED) return FAILED;
      node[segment] = merged;
    }
    return node;
  }
  if (!Array.isArray(target)) return FAILED;
  if (segment === APPEND) {
    appendAll(target, typeof leaf === 'string' ? [leaf] : leaf);
    return target;
  }
  if (!hasOwn.call(target, segment)) {
    if (segment > target.length) holey = true;
    target[segment] = branch(from + 1, count, leaf);
    return target;
  }
  // The item is an object where more groups follow, or where the leaf is an array.
  const existing = target[segment];
  if (
    typeof existing === 'object' &&
    existing !== null &&
    (from + 1 < count || typeof leaf !== 'string')
  ) {
    const merged = mergeAt(existing, from + 1, count, leaf);
    if (merged === FAILED) return FAILED;
    target[segment] = merged;
  } else target.push(branch(from + 1, count, leaf));
  return target;
}

/** qs's merge of an array of values into an array: each to its index, or appended when taken. */
function appendAll(target: unknown[], values: string[]): void {
  for (let i = 0; i < values.length; i++) {
    if (hasOwn.call(target, i)) target.push(values[i]);
    else target[i] = values[i];
  }
}

/** What qs's parseObject builds for the groups from `from` on: one container per group. */
function branch(from: number, count: number, leaf: Value): unknown {
  let node: unknown = leaf;
  for (let i = count - 1; i >= from; i--) {
    const segment = segments[i] as string | number;
    if (segment === APPEND) node = typeof leaf === 'string' ? [leaf] : leaf;
    else if (typeof segment === 'number') {
      const array: unknown[] = [];
      if (segment > 0) holey = true;
      array[segment] = node;
      node = array;
    } else {
      const object: Record<string, unknown> = {};
      object[segment] = node;
      node = object;
    }
  }
  return node;
}

/** Sparse arrays made dense, as qs's compact leaves them. */
function compactArrays(node: Node): void {
  const keys = Object.keys(node);
  for (const key of keys) {
    const value = (node as Record<string, unknown>)[key];
    if (typeof value !== 'object' || value === null) continue;
    compactArrays(value as Node);
    if (Array.isArray(value)) (node as Record<string, unknown>)[key] = value.filter(() => true);
  }
}

/**
 * `extended: false`, body-parser's qs at depth 0, for what plainForm leaves (a bracket, escaped
 * or not, a charset sentinel, ISO-8859-1). In a body without brackets every written key is its
 * own name, so the pairs go straight into the object that is the result, without the empty key
 * and `__proto__` (qs drops them), an object built as plainForm builds its own. Any other body
 * is split, then given qs's depth-0 rules by flatForm.
 */
function flatGrammar(options: ResolvedUrlencodedOptions): Grammar {
  const { charsetSentinel, interpretNumericEntities } = options;
  return (text, charset) => {
    if (!ANY_BRACKET.test(text)) {
      const form = splitPairs(text, charset, charsetSentinel, interpretNumericEntities, {
        into: Object.create(null),
        add: addNamedPair,
      });
      return Object.setPrototypeOf(form, Object.prototype);
    }
    const pairs = splitPairs(text, charset, charsetSentinel, interpretNumericEntities, {
      into: Object.create(null),
      add: addPair,
    });
    return flatForm(pairs);
  };
}

// The characters plainForm looks at.
const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
// What a key or value holds, noted as plainForm passes it: which decoding it needs.
const SPACED = 1;
const ESCAPED = 2;

/**
 * The form browsers send: the flat grammar in UTF-8, without a bracket (escaped or not), read
 * in one pass as node:querystring reads a query. Each `&`, `=`, `+` and `%` is noted as it is
 * passed, so a key or a value is sliced once and decoded only as far as it needs (decodePart),
 * and the pairs go into the form as they end: no array of pairs, no second scan to count them
 * (the limit is checked at each `&`), no test for brackets first. undefined: the body has a
 * bracket, and the general path reads it (qs's rules for brackets at depth 0, flatForm).
 *
 * The form is built without a prototype and given Object.prototype once complete. V8 keeps an
 * object without a prototype as a hash table from the start, where an ordinary one grows
 * through a new hidden class for each key added by name and is turned into a hash table past
 * a dozen (3 % fewer instructions for a 20-field form, docs/benchmarks.md). Without a
 * prototype, a key is also either the form's own or absent: nothing inherited (`toString`) to
 * tell apart.
 */
function plainForm(text: string, limit: number): Flat | undefined {
  const form: Flat = Object.create(null);
  const length = text.length;
  let count = 1;
  let start = 0;
  let equals = -1;
  let keyMarks = 0;
  let marks = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === AMPERSAND) {
      addPlainPair(form, text, start, equals, i, keyMarks, marks);
      if (++count > limit) throw createError('parameters.too.many', { body: text });
      start = i + 1;
      equals = -1;
      marks = 0;
    } else if (code === EQUALS) {
      if (equals === -1) {
        equals = i;
        keyMarks = marks;
        marks = 0;
      }
    } else if (code === PLUS) marks |= SPACED;
    else if (code === PERCENT) {
      if (isEscapedBracket(text, i)) return undefined;
      marks |= ESCAPED;
    } else if (code === OPEN_BRACKET || code === CLOSE_BRACKET) return undefined;
  }
  addPlainPair(form, text, start, equals, length, keyMarks, marks);
  return Object.setPrototypeOf(form, Object.prototype);
}

/** Whether the `%` at `at` starts `%5B` or `%5D` (either case). */
function isEscapedBracket(text: string, at: number): boolean {
  if (text.charCodeAt(at + 1) !== 0x35) return false;
  const letter = text.charCodeAt(at + 2) | 0x20;
  return letter === 0x62 || letter === 0x64;
}

/** The pair `text[start, end)`, its first `=` at `equals` (-1: none, the value is empty). */
function addPlainPair(
  form: Flat,
  text: string,
  start: number,
  equals: number,
  end: number,
  keyMarks: number,
  marks: number,
): void {
  if (equals === -1) addNamedPair(form, decodePart(text, start, end, marks), '');
  else {
    const key = decodePart(text, start, equals, keyMarks);
    addNamedPair(form, key, decodePart(text, equals + 1, end, marks));
  }
}

/**
 * `text[start, end)` decoded as qs decodes UTF-8: each `+` a space, then decodeURIComponent,
 * and the text with its spaces as it is when that throws (a malformed escape). `marks` says
 * which of the two it needs. An escaped one is decoded in one pass of our own where it can be
 * (decodeFormUtf8), which costs a quarter less than decodeURIComponent on a browser's form.
 */
function decodePart(text: string, start: number, end: number, marks: number): string {
  if ((marks & ESCAPED) === 0) {
    return (marks & SPACED) === 0 ? text.slice(start, end) : spaced(text, start, end);
  }
  const escaped = text.slice(start, end);
  const decoded = decodeFormUtf8(escaped);
  if (decoded !== undefined) return decoded;
  const part = (marks & SPACED) === 0 ? escaped : spaced(escaped, 0, escaped.length);
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * `text[start, end)` with each `+` a space: joined from the slices between the first few, which
 * for a short value costs half of a replacement's; past them, the rest is rewritten as bytes
 * (spacedBytes), so a value of a million `+` is not a million joined strings.
 */
function spaced(text: string, start: number, end: number): string {
  let out = '';
  let from = start;
  let plus = text.indexOf('+', start);
  for (let joined = 0; plus !== -1 && plus < end; joined++) {
    if (joined === JOINED_SPACES) return out + spacedBytes(text.slice(from, end));
    out += `${text.slice(from, plus)} `;
    from = plus + 1;
    plus = text.indexOf('+', from);
  }
  return out + text.slice(from, end);
}

const JOINED_SPACES = 8;

/**
 * `text` with each `+` a space, through its UTF-8 bytes: a fixed cost per byte (a regular
 * expression's replacement costs ~130 ns a match, 1.3 s for 10 MB of `+`), and the text held
 * twice at most. The text is decoded UTF-8, so it has no lone surrogate to lose on the way.
 */
function spacedBytes(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === PLUS) bytes[i] = 0x20;
  return bytes.toString('utf8');
}

const ANY_BRACKET = /[[\]]|%5[bd]/i;

/** Where split pairs go: the object, and how a pair is added to it. */
interface PairSink {
  readonly into: Flat;
  readonly add: (flat: Flat, key: string, value: string) => void;
}

/**
 * A pair into a null-prototype object, where `__proto__` is a key like any other. A repeated
 * key collects its values in an array.
 */
function addPair(flat: Flat, key: string, value: string): void {
  const existing = flat[key];
  if (existing === undefined) flat[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else flat[key] = [existing, value];
}

/**
 * A pair into the form of a body without brackets (a null-prototype object, see flatGrammar):
 * the empty key and `__proto__` are dropped, as qs does.
 */
function addNamedPair(flat: Flat, key: string, value: string): void {
  if (key === '' || key === '__proto__') return;
  const existing = flat[key];
  if (existing === undefined) flat[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else flat[key] = [existing, value];
}

/** Parameters in the body (`&`-separated), or undefined once past the limit. */
function countParameters(body: string, limit: number): number | undefined {
  let count = 0;
  let index = -1;
  do {
    count++;
    if (count > limit) return undefined;
    index = body.indexOf('&', index + 1);
  } while (index !== -1);
  return count;
}

// What browsers send in a `utf8` field: `✓` percent-encoded as UTF-8, or as the numeric entity
// `&#10003;` when the page's charset could not encode it (then the form is iso-8859-1).
const UTF8_SENTINEL = 'utf8=%E2%9C%93';
const ISO_SENTINEL = 'utf8=%26%2310003%3B';

/**
 * application/x-www-form-urlencoded (URL Standard sec 5.1), as qs splits it: pairs on `&`, the
 * key ending at the first `]=` or else the first `=`; `+` is a space; percent-escapes decoded
 * as UTF-8 (kept as they are when malformed) or Latin-1. A repeated key collects its values in
 * an array (see the sink's `add`).
 */
function splitPairs(
  body: string,
  charset: string,
  sentinel: boolean,
  numericEntities: boolean,
  sink: PairSink,
): Flat {
  // qs reads escaped brackets as brackets before it splits (so `a=x%5D=y` has the key `a=x]`);
  // one test spares the two replacements the bodies that have none.
  const unescaped = ESCAPED_BRACKET.test(body)
    ? body.replace(/%5B/gi, '[').replace(/%5D/gi, ']')
    : body;
  const parts = unescaped.split('&');
  let skip = -1;
  if (sentinel) {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part.startsWith('utf8=')) {
        if (part === UTF8_SENTINEL) charset = 'utf-8';
        else if (part === ISO_SENTINEL) charset = 'iso-8859-1';
        skip = i;
        break;
      }
    }
  }
  const { into: flat, add } = sink;
  for (let i = 0; i < parts.length; i++) {
    if (i === skip) continue;
    const part = parts[i] as string;
    const bracketEquals = part.indexOf(']=');
    const pos = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const key = decodeComponent(pos === -1 ? part : part.slice(0, pos), charset);
    let value = pos === -1 ? '' : decodeComponent(part.slice(pos + 1), charset);
    if (value && numericEntities && charset === 'iso-8859-1') value = decodeEntities(value);
    add(flat, key, value);
  }
  return flat;
}

const ESCAPED_BRACKET = /%5[bd]/i;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * body-parser's `extended: false` result: what qs 6 makes of the split pairs at depth 0, where
 * a key is never nested, built without qs's per-key object, merge and compaction passes. The
 * rules, each one of qs's (lib/parse.js parseObject and lib/utils.js merge), held equal by the
 * property and differential tests against body-parser:
 * - keys in the order qs visits them: `Object.keys` of the split pairs, so integer-like keys
 *   first, then the others as they first appeared; the values of one key stay together;
 * - the empty key is dropped, and so is `__proto__` (`[__proto__]` too); `constructor`,
 *   `hasOwnProperty` and the like are plain own properties of an ordinary object;
 * - one pair of wrapping brackets is stripped (`[a]=1` is `a`), so `[a]` and `a` combine;
 * - the key `[]` spreads its values over the keys `0`, `1`, ...;
 * - a name reached again from another written key (`a` then `[a]`) appends that key's values,
 *   except that a lone empty string joins nothing (qs's merge returns early on a falsy value;
 *   the values of one written key, empty ones included, were already collected by the split).
 * arrayLimit is the parameter count here, which no key's values can exceed, so qs's overflow
 * objects cannot occur.
 */
function flatForm(pairs: Flat): Flat {
  const form: Flat = {};
  for (const key of Object.keys(pairs)) {
    const value = pairs[key] as string | string[];
    if (key === '') continue;
    if (key === '[]') {
      const values = typeof value === 'string' ? [value] : value;
      for (let i = 0; i < values.length; i++) addValue(form, String(i), values[i] as string);
      continue;
    }
    const name = key[0] === '[' && key[key.length - 1] === ']' ? key.slice(1, -1) : key;
    if (name !== '__proto__') addValue(form, name, value);
  }
  return form;
}

function addValue(form: Flat, name: string, value: string | string[]): void {
  if (!hasOwn.call(form, name)) {
    form[name] = value;
    return;
  }
  if (value === '') return;
  const existing = form[name] as string | string[];
  // An array here is one this parse made (split pairs or a concat): appending to it is safe.
  if (typeof existing === 'string') form[name] = [existing].concat(value);
  else if (typeof value === 'string') existing.push(value);
  else for (const item of value) existing.push(item);
}

/** A key or a value of the form, its `+` and percent escapes decoded in `charset`. */
function decodeComponent(text: string, charset: string): string {
  if (charset === 'iso-8859-1') {
    const part = text.includes('+') ? text.replaceAll('+', ' ') : text;
    if (!part.includes('%')) return part;
    return part.replace(/%[0-9a-f]{2}/gi, (percent) =>
      String.fromCharCode(Number.parseInt(percent.slice(1), 16)),
    );
  }
  const marks = (text.includes('+') ? SPACED : 0) | (text.includes('%') ? ESCAPED : 0);
  return marks === 0 ? text : decodePart(text, 0, text.length, marks);
}

// The decoded bytes of one key or value: at most one per character of its text, which the
// fast path takes in ASCII only. Made on first use: loading the module makes nothing (a test
// environment may have no `Buffer` global, and an application may never parse a form).
const SCRATCH_BYTES = 4096;
let scratch: Buffer | undefined;

function scratchBuffer(): Buffer {
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  return scratch;
}

/**
 * What decodeURIComponent makes of `text` with each `+` a space, or undefined where the answer
 * is not simply that (the caller then takes the general path): a malformed escape, escapes that
 * are not well-formed UTF-8 (decodeURIComponent throws, and the text is kept as written), or a
 * character outside ASCII written as it is.
 * Well-formed is the Unicode Standard's table 3-7, the same rule as decodeURIComponent's: no
 * overlong forms, no surrogates, nothing past U+10FFFF, each byte of a sequence its own escape.
 */
function decodeFormUtf8(text: string): string | undefined {
  const length = text.length;
  const out = length <= SCRATCH_BYTES ? scratchBuffer() : Buffer.allocUnsafe(length);
  let size = 0;
  let ascii = true;
  for (let i = 0; i < length; i++) {
    let code = text.charCodeAt(i);
    if (code === PLUS) code = 0x20;
    else if (code === PERCENT) {
      code = hexByte(text, i + 1);
      if (code === -1) return undefined;
      i += 2;
      if (code >= 0x80) {
        const bytes = utf8Sequence(text, i + 1, code, out, size);
        if (bytes === -1) return undefined;
        size += bytes;
        i += 3 * (bytes - 1);
        ascii = false;
        continue;
      }
    } else if (code >= 0x80) return undefined;
    out[size++] = code;
  }
  return out.toString(ascii ? 'latin1' : 'utf8', 0, size);
}

/**
 * A UTF-8 sequence whose lead byte `lead` was just read, its continuation bytes escaped from
 * `at` on: writes its bytes at `out[size]` and returns how many, or -1 when the sequence is not
 * well-formed.
 */
function utf8Sequence(text: string, at: number, lead: number, out: Buffer, size: number): number {
  let continuations: number;
  // The second byte's range, narrowed after E0, ED, F0 and F4 (overlong, surrogate, too high).
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) continuations = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    continuations = 2;
    if (lead === 0xe0) low = 0xa0;
    else if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    continuations = 3;
    if (lead === 0xf0) low = 0x90;
    else if (lead === 0xf4) high = 0x8f;
  } else return -1;
  out[size] = lead;
  for (let n = 1; n <= continuations; n++, at += 3) {
    if (text.charCodeAt(at) !== PERCENT) return -1;
    const byte = hexByte(text, at + 1);
    if (byte < low || byte > high) return -1;
    out[size + n] = byte;
    low = 0x80;
    high = 0xbf;
  }
  return continuations + 1;
}

/** The byte written as two hex digits at `at`, or -1 (past the end too: NaN is no digit). */
function hexByte(text: string, at: number): number {
  const high = hexDigit(text.charCodeAt(at));
  const low = hexDigit(text.charCodeAt(at + 1));
  return high === -1 || low === -1 ? -1 : (high << 4) | low;
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  // ASCII letters differ from their lower case by one bit.
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** `&#NNNN;` -> the character, for forms from pages whose charset could not encode it. */
function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_, digits: string) => {
    let code = Number.parseInt(digits, 10);
    if (code > 0xffff && code <= 0x10ffff) {
      code -= 0x10000;
      return String.fromCharCode(0xd800 | (code >> 10), 0xdc00 | (code & 0x3ff));
    }
    return String.fromCharCode(code);
  });
}
