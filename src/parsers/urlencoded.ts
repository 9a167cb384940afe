// parsers.urlencoded: HTML form bodies, with body-parser 2's results for both grammars.
//
// The body is split into `key=value` pairs here, as qs's own first stage does (same decoding,
// charset sentinel, numeric entities), but with repeated keys collected in linear time: qs
// combines each repeat by copying the whole array so far, so `a&a&a...` costs O(n²). The
// structure of the keys (`a[b][]`, depth, array limits, prototype guards) is then left to qs,
// which reads an already-split object exactly as it reads its own first stage's output.

import qs from 'qs';
import { createError } from '../errors.js';
import { formCharsets } from './charset.js';
import { resolveOptions, resolveUrlencodedOptions } from './options.js';
import { createReader } from './read-body.js';
import type { ParserMiddleware, UrlencodedOptions } from './types.js';

type Flat = Record<string, string | string[]>;

export function urlencoded(options?: UrlencodedOptions): ParserMiddleware {
  const common = resolveOptions(options, 'application/x-www-form-urlencoded');
  const { extended, parameterLimit, charsetSentinel, interpretNumericEntities, depth } =
    resolveUrlencodedOptions(options, common);

  const parse = (body: string | Buffer, charset: string | null): unknown => {
    const text = body as string;
    if (text.length === 0) return {};
    // Counted before anything is split, stopping at the limit: a body of a million `&` costs
    // one scan, not a million parameters.
    const count = countParameters(text, parameterLimit);
    if (count === undefined) throw createError('parameters.too.many', { body: text });
    const flat = splitPairs(text, charset ?? 'utf-8', charsetSentinel, interpretNumericEntities);
    try {
      return qs.parse(flat as never, {
        allowPrototypes: true,
        // Long arrays stay arrays (qs turns an array past its limit into an object).
        arrayLimit: extended ? Math.max(100, count) : count,
        depth,
        parameterLimit,
        strictDepth: true,
      });
    } catch (err) {
      if (err instanceof RangeError) {
        throw createError('querystring.parse.rangeError', { body: text });
      }
      throw err;
    }
  };

  return createReader(common, { charsets: formCharsets, parse });
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
 * as UTF-8 (kept as they are when malformed) or Latin-1. Keys are own properties of a
 * null-prototype object, so `__proto__` is a key like any other.
 */
function splitPairs(
  body: string,
  charset: string,
  sentinel: boolean,
  numericEntities: boolean,
): Flat {
  const parts = body.replace(/%5B/gi, '[').replace(/%5D/gi, ']').split('&');
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

function decode(text: string, charset: string): string {
  if (!text.includes('%')) return text.includes('+') ? text.replace(/\+/g, ' ') : text;
  const spaced = text.replace(/\+/g, ' ');
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
