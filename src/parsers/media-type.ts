// Content-Type parsing and the `type` option's matching, as body-parser (type-is 2,
// content-type 2, media-typer 1) does it, so the same requests are parsed.
//
// RFC 9110 sec 8.3: Content-Type = media-type
//   media-type = type "/" subtype parameters
//   parameters = *( OWS ";" OWS [ parameter ] )
//   parameter  = parameter-name "=" parameter-value
//   parameter-value = ( token / quoted-string )
// The header is scanned once, left to right, by index: no regex runs over it, so a long or
// crafted header costs linear time.

import mime from 'mime-types';

/** The parts of a Content-Type header a parser needs, read once per request. */
export interface ContentType {
  /** `type/subtype`, lower-cased, or null when absent or not a valid media type. */
  readonly type: string | null;
  /** The `charset` parameter, lower-cased, or undefined. */
  readonly charset: string | undefined;
}

const SP = 0x20;
const HTAB = 0x09;
const SEMI = 0x3b;
const EQ = 0x3d;
const DQUOTE = 0x22;
const BSLASH = 0x5c;

// RFC 6838 sec 4.2, as media-typer tests a type:
//   type-name = restricted-name ; subtype-name = restricted-name
//   restricted-name = restricted-name-first *126restricted-name-chars
//   restricted-name-first = ALPHA / DIGIT
//   restricted-name-chars = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "-" / "^" / "_"
//                           (and "." / "+" in the subtype)
// Bounded repetitions of disjoint classes around one "/": no backtracking blow-up.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

function skipOWS(header: string, index: number): number {
  while (index < header.length) {
    const code = header.charCodeAt(index);
    if (code !== SP && code !== HTAB) break;
    index++;
  }
  return index;
}

function trimEnd(header: string, start: number, end: number): number {
  while (end > start) {
    const code = header.charCodeAt(end - 1);
    if (code !== SP && code !== HTAB) break;
    end--;
  }
  return end;
}

function skipValue(header: string, index: number): number {
  const semi = header.indexOf(';', index);
  return semi === -1 ? header.length : semi;
}

/** Reads the media type and charset of a Content-Type header value. */
export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { type: null, charset: undefined };
  const start = skipOWS(header, 0);
  let index = skipValue(header, start);
  const type = header.slice(start, trimEnd(header, start, index)).toLowerCase();
  let charset: string | undefined;
  // Parameters: the first `charset` wins; malformed parameters are skipped, not fatal.
  parameter: while (index < header.length && charset === undefined) {
    index = skipOWS(header, index + 1);
    const keyStart = index;
    while (index < header.length) {
      const code = header.charCodeAt(index);
      if (code === SEMI) continue parameter;
      if (code === EQ) {
        const key = header.slice(keyStart, trimEnd(header, keyStart, index)).toLowerCase();
        index = skipOWS(header, index + 1);
        let value: string | undefined;
        if (index < header.length && header.charCodeAt(index) === DQUOTE) {
          // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE ; unterminated: ignored
          index++;
          let text = '';
          while (index < header.length) {
            const c = header.charCodeAt(index++);
            if (c === DQUOTE) {
              value = text;
              break;
            }
            if (c === BSLASH && index < header.length) text += header[index++];
            else text += String.fromCharCode(c);
          }
          index = skipValue(header, index);
        } else {
          const valueStart = index;
          index = skipValue(header, index);
          value = header.slice(valueStart, trimEnd(header, valueStart, index));
        }
        if (key === 'charset' && value !== undefined) charset = value.toLowerCase();
        continue parameter;
      }
      index++;
    }
  }
  return { type: MEDIA_TYPE.test(type) ? type : null, charset };
}

/** A configured type, normalised once: `[type, subtype]`, or null when it can never match. */
type Pattern = readonly [string, string] | null;

// type-is' shorthands: `urlencoded`, `multipart`, `+suffix`, and file extensions looked up in
// mime-types (`json` -> application/json, `bin` -> application/octet-stream).
function compilePattern(type: unknown): Pattern {
  if (typeof type !== 'string') return null;
  let full: string | false;
  if (type === 'urlencoded') full = 'application/x-www-form-urlencoded';
  else if (type === 'multipart') full = 'multipart/*';
  else if (type[0] === '+') full = `*/*${type}`;
  else full = type.includes('/') ? type : mime.lookup(type);
  if (full === false) return null;
  const parts = full.split('/');
  if (parts.length !== 2) return null;
  return [parts[0] as string, parts[1] as string];
}

// type-is' mimeMatch: `*` matches any type or subtype, `*+json` any subtype with that suffix.
// Configured types are compared as given (not lower-cased), as type-is does.
function matches(pattern: Pattern, type: string): boolean {
  if (pattern === null) return false;
  const slash = type.indexOf('/');
  const [expectedType, expectedSubtype] = pattern;
  if (expectedType !== '*' && expectedType !== type.slice(0, slash)) return false;
  const subtype = type.slice(slash + 1);
  if (expectedSubtype.startsWith('*+')) {
    return (
      expectedSubtype.length <= subtype.length + 1 &&
      expectedSubtype.slice(1) === subtype.slice(1 - expectedSubtype.length)
    );
  }
  return expectedSubtype === '*' || expectedSubtype === subtype;
}

/**
 * Compiles the `type` option (a string or list of strings) into a test on a parsed media type.
 * An empty list matches any valid media type, as type-is does.
 */
export function compileTypeMatcher(type: unknown): (mediaType: string | null) => boolean {
  const list: readonly unknown[] = Array.isArray(type) ? type : [type];
  if (list.length === 0) return (mediaType) => mediaType !== null;
  const patterns = list.map(compilePattern);
  // The usual configuration, one type with no wildcard (the default `application/json`):
  // matching is one string comparison, as a valid media type has exactly one `/`.
  const only = patterns.length === 1 ? patterns[0] : null;
  if (only && !only[0].includes('*') && !only[1].includes('*')) {
    const exact = `${only[0]}/${only[1]}`;
    return (mediaType) => mediaType === exact;
  }
  return (mediaType) => {
    if (mediaType === null) return false;
    for (const pattern of patterns) if (matches(pattern, mediaType)) return true;
    return false;
  };
}
