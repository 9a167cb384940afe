// parsers.urlencoded: HTML form bodies, with body-parser 2's results for both grammars.
//
// A long body is split into `key=value` pairs here, as qs's own first stage does (same
// decoding, charset sentinel, numeric entities), but with repeated keys collected in linear
// time: qs combines each repeat by copying the whole array so far, so `a&a&a...` costs O(n²).
// For the extended grammar the structure of the keys (`a[b][]`, depth, array limits, prototype
// guards) is then left to qs, which reads an already-split object exactly as it reads its own
// first stage's output (extendedGrammar). The flat grammar (body-parser's qs at depth 0) has
// so little structure that it is built here directly, which is most of its cost saved; a body
// without brackets goes through Node's querystring (flatGrammar).

import querystring from 'node:querystring';
import qs from 'qs';
import { createError } from '../errors.js';
import { formCharsets } from './charset.js';
import {
  type ResolvedUrlencodedOptions,
  resolveOptions,
  resolveUrlencodedOptions,
} from './options.js';
import { createReader } from './read-body.js';
import type { ParserMiddleware, UrlencodedOptions } from './types.js';

type Flat = Record<string, string | string[]>;
/** One grammar: a body's text (not empty), its charset and its parameter count -> `req.body`. */
type Grammar = (text: string, charset: string, count: number) => unknown;

export function urlencoded(options?: UrlencodedOptions): ParserMiddleware {
  const common = resolveOptions(options, 'application/x-www-form-urlencoded');
  const resolved = resolveUrlencodedOptions(options, common);
  const grammar = resolved.extended ? extendedGrammar(resolved) : flatGrammar(resolved);
  const parameterLimit = resolved.parameterLimit;

  const parse = (body: string | Buffer, charset: string | null): unknown => {
    const text = body as string;
    if (text.length === 0) return {};
    // Counted before anything is split, stopping at the limit: a body of a million `&` costs
    // one scan, not a million parameters.
    const count = countParameters(text, parameterLimit);
    if (count === undefined) throw createError('parameters.too.many', { body: text });
    return grammar(text, charset ?? 'utf-8', count);
  };

  return createReader(common, { charsets: formCharsets, parse });
}

/**
 * `extended: true`: qs's grammar, all of it. A form of up to SPLIT_FROM parameters goes to qs
 * as it is, read exactly as body-parser has it read; a longer one is split into pairs here
 * first, in linear time (see the top of this file), and its keys' structure (`a[b][]`, depth,
 * array limits, prototype guards) left to qs, which reads the split object as it reads its
 * own first stage's output.
 */
function extendedGrammar(options: ResolvedUrlencodedOptions): Grammar {
  const { charsetSentinel, interpretNumericEntities, depth, parameterLimit } = options;
  return (text, charset, count) => {
    const common = {
      allowPrototypes: true,
      // Long arrays stay arrays (qs turns an array past its limit into an object).
      arrayLimit: Math.max(100, count),
      depth,
      parameterLimit,
      strictDepth: true,
    };
    try {
      if (count <= SPLIT_FROM) {
        return qs.parse(text, {
          ...common,
          charset: charset as 'utf-8' | 'iso-8859-1',
          charsetSentinel,
          interpretNumericEntities,
        });
      }
      const pairs = splitPairs(text, charset, charsetSentinel, interpretNumericEntities);
      return qs.parse(pairs as never, common);
    } catch (err) {
      if (err instanceof RangeError) {
        throw createError('querystring.parse.rangeError', { body: text });
      }
      throw err;
    }
  };
}

/**
 * From how many parameters a form is split here rather than by qs. qs collects a repeated key
 * by copying the array so far, quadratic in the repeats: harmless for a short form, and for
 * one it is cheaper than the copy of a pre-split object that qs makes first (its copyInput).
 */
const SPLIT_FROM = 100;

/**
 * `extended: false`, body-parser's qs at depth 0. A UTF-8 body without brackets (escaped or
 * not), whose escapes all decode, and without a charset sentinel to look for has none of the
 * grammar's special cases but the empty key and `__proto__`, which are dropped: Node's
 * querystring then splits and decodes it as qs does (see plainForm), in a fraction of the time.
 * Any other body takes qs's rules (splitPairs, then flatForm).
 */
function flatGrammar(options: ResolvedUrlencodedOptions): Grammar {
  const { charsetSentinel, interpretNumericEntities } = options;
  return (text, charset) => {
    if (charset === 'utf-8' && !charsetSentinel && !ANY_BRACKET.test(text) && escapesDecode(text)) {
      return plainForm(text);
    }
    return flatForm(splitPairs(text, charset, charsetSentinel, interpretNumericEntities));
  };
}

const ANY_BRACKET = /[[\]]|%5[bd]/i;

// An escape that is not two hex digits, or one of a byte past ASCII (valid only as part of a
// whole UTF-8 sequence).
const ESCAPE_THAT_MAY_FAIL = /%(?![0-9a-f]{2})|%[89a-f]/i;

/**
 * Whether every key and value of the body percent-decodes as UTF-8. The pairs are cut at
 * literal `&` and `=`, never inside an escape, so that is whether the whole body decodes; a
 * body of ASCII escapes (most) is answered by one scan.
 */
function escapesDecode(text: string): boolean {
  if (!ESCAPE_THAT_MAY_FAIL.test(text)) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

// maxKeys 0: no limit of its own, the parameters were counted already.
const QUERYSTRING_OPTIONS = { maxKeys: 0 };

/**
 * A flat form through querystring.parse, whose splitting (`&`, then the first `=`; `+` is a
 * space; a repeated key collects an array) and decoding are qs's for a body without brackets
 * whose escapes all decode (where one does not, qs keeps that key or value as written, and
 * querystring decodes what it can). The empty key and `__proto__` are dropped, as qs drops
 * them.
 */
function plainForm(text: string): Flat {
  const form = querystring.parse(text, '&', '=', QUERYSTRING_OPTIONS) as Flat;
  // querystring's object has no prototype, so `in` sees its own keys only.
  if ('' in form) Reflect.deleteProperty(form, '');
  if ('__proto__' in form) Reflect.deleteProperty(form, '__proto__');
  // Given the prototype of the ordinary object body-parser returns, rather than copied into
  // one: the copy of twenty keys cost a fifth of the whole parse.
  return Object.setPrototypeOf(form, Object.prototype) as Flat;
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
 * an array. Keys are own properties of a null-prototype object, so `__proto__` is a key like
 * any other.
 */
function splitPairs(
  body: string,
  charset: string,
  sentinel: boolean,
  numericEntities: boolean,
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
  const flat: Flat = Object.create(null);
  for (let i = 0; i < parts.length; i++) {
    if (i === skip) continue;
    const part = parts[i] as string;
    const bracketEquals = part.indexOf(']=');
    const pos = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const key = decode(pos === -1 ? part : part.slice(0, pos), charset);
    let value = pos === -1 ? '' : decode(part.slice(pos + 1), charset);
    if (value && numericEntities && charset === 'iso-8859-1') value = decodeEntities(value);
    const existing = flat[key];
    if (existing === undefined) flat[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else flat[key] = [existing, value];
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

function decode(text: string, charset: string): string {
  // Most keys and values have no `+`: the test is cheaper than a replacement that finds none.
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  if (charset === 'iso-8859-1') {
    return spaced.replace(/%[0-9a-f]{2}/gi, (percent) =>
      String.fromCharCode(Number.parseInt(percent.slice(1), 16)),
    );
  }
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
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
