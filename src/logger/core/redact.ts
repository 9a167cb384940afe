// Redaction: secrets that clients and servers put in headers, query strings and URLs are
// masked before they reach a log line, in every format. Logs are copied to collectors,
// tickets and laptops; a bearer token or a session cookie in them is a credential anyone with
// log access can replay (and personal data under the GDPR). The default lists cover the
// headers and query parameters that carry credentials in common practice (OAuth 2.0, signed S3
// and GCS URLs, API keys, CSRF tokens); the logger's `redact` option adds to them or replaces
// them, and `redact: false` turns masking off.

import { escapeLogField, UNSAFE_SOURCE } from './escape.js';

/** The mask written in place of a secret. */
export const MASK = '[REDACTED]';
/** The mask of a query parameter's value (kept URL-safe: no brackets). */
export const QUERY_MASK = 'REDACTED';

export const DEFAULT_REDACTED_HEADERS: readonly string[] = Object.freeze([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-amz-security-token',
  'x-goog-api-key',
  'private-token',
  'x-access-token',
  'api-key',
]);

export const DEFAULT_REDACTED_QUERY: readonly string[] = Object.freeze([
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'code',
  'password',
  'secret',
  'client_secret',
  'api_key',
  'apikey',
  'key',
  'jwt',
  'session_id',
  'auth',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'sig',
  'signature',
]);

/** The default lists, as `logger.redactDefaults` and the entries export them. */
export const redactDefaults: Readonly<{ headers: readonly string[]; query: readonly string[] }> =
  Object.freeze({ headers: DEFAULT_REDACTED_HEADERS, query: DEFAULT_REDACTED_QUERY });

/** What one logger masks, resolved once from its `redact` option. Names are lower-case. */
export interface RedactPolicy {
  readonly headers: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  /**
   * Finds a query string that may hold a listed parameter: a listed name right before `=`, or
   * as a bracketed part of a name (`a[token]`, `token[]`, `a=b[token]=`), or after `;` or `#`
   * (see `maskParameters`), or any percent-encoded key (which must be decoded to be compared).
   * Most queries do not match, and skip the per-parameter work. Global, so that a search can
   * start at a URL's `?` (`lastIndex`) without slicing the query out first; set `lastIndex`
   * before each use.
   */
  readonly queryHint: RegExp | undefined;
  /**
   * Finds a URL that needs work before a text line writes it: a listed name after `?`, `&`,
   * `;`, `#` or `[` and before `=` (or a bracket), a character to escape (`\` included, which
   * WHATWG parsers read as `/`), a `%` (a key to decode) or an `@` (userinfo). One test where
   * the line tested for escaping alone.
   */
  readonly urlHint: RegExp;
  /**
   * Whether URLs are masked at all: the userinfo of an absolute URL, the listed parameters of
   * its query and fragment, the fragment of a `Location`. False only for `redact: false`.
   */
  readonly urls: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A listed name as a parameter's key: the name, then `=`, `&`, a bracket or the end. */
function listedSource(names: readonly string[]): string {
  return `(?:${names.map(escapeRegExp).join('|')})(?:[=&[\\]]|$)`;
}

function makePolicy(
  headers: readonly string[],
  query: readonly string[],
  urls: boolean,
): RedactPolicy {
  const names = [...new Set(query.map((name) => name.toLowerCase()))];
  const listed = listedSource(names);
  // One character class for the characters to escape, `@` and `%`, tried after the names (the
  // order irregexp runs fastest; a test of a 30-character URL costs a third more than the
  // escaping test alone).
  const marks = `${urls ? '@' : ''}${names.length === 0 ? '' : '%'}`;
  const chars = `${UNSAFE_SOURCE.slice(0, -1)}${marks}]`;
  return {
    headers: new Set(headers.map((name) => name.toLowerCase())),
    query: new Set(names),
    queryHint: names.length === 0 ? undefined : new RegExp(`(?:^|[?&;#[])${listed}|%`, 'gi'),
    urlHint: new RegExp(names.length === 0 ? chars : `[?&;#[]${listed}|${chars}`, 'i'),
    urls,
  };
}

/**
 * One test of a whole request target where a line would test its path and query apart: finds
 * a listed parameter after `?`, `&`, `;`, `#` or `[` (wherever `queryHint` finds one in the
 * query, which starts after a `?`), a `%`, or a character of `chars` (a character class's
 * source, `[...]`). A target it does not match has no parameter to mask, and no part of it
 * holds one of `chars`.
 */
export function targetHint(policy: RedactPolicy, chars: string): RegExp {
  const names = [...policy.query];
  if (names.length === 0) return new RegExp(chars);
  // `[?&;#[]listed|[chars%]`, written as one class of every character that can start a
  // match, then which it was: irregexp scans for a single class a third faster.
  const marks = `${chars.slice(0, -1)}%]`;
  return new RegExp(`[?&;#[${marks.slice(1)}(?:(?<=${marks})|${listedSource(names)})`, 'i');
}

export const DEFAULT_POLICY: RedactPolicy = makePolicy(
  DEFAULT_REDACTED_HEADERS,
  DEFAULT_REDACTED_QUERY,
  true,
);

export const NO_REDACTION: RedactPolicy = makePolicy([], [], false);

function isNameList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((name) => typeof name === 'string' && name !== '');
}

/**
 * One list of the `redact` option: absent keeps the default list, an array adds its names to
 * it, a function is given the default list and returns the list to use instead.
 */
function resolveList(value: unknown, defaults: readonly string[], option: string) {
  if (value === undefined) return defaults;
  const replaced = typeof value === 'function';
  const list: unknown = replaced
    ? (value as (names: readonly string[]) => unknown)(defaults)
    : value;
  if (!isNameList(list)) {
    throw new TypeError(
      `option ${option} must be an array of non-empty strings, or a function returning one`,
    );
  }
  return replaced ? list : [...defaults, ...list];
}

const REDACT_KEYS: ReadonlySet<string> = new Set(['headers', 'query']);

/**
 * The `redact` option: absent or `true` for the default lists, `false` for none, or
 * `{ headers, query }` where a list adds to the default one and a function replaces it.
 */
export function resolveRedact(option: unknown): RedactPolicy {
  if (option === undefined || option === null || option === true) return DEFAULT_POLICY;
  if (option === false) return NO_REDACTION;
  if (typeof option !== 'object' || Array.isArray(option)) {
    throw new TypeError('option redact must be false or an object { headers, query }');
  }
  // A misspelt key (or `defaults: false`, meant to drop the defaults) would silently keep
  // secrets in the log or the defaults in place: it is refused instead.
  for (const key of Object.keys(option)) {
    if (!REDACT_KEYS.has(key)) {
      throw new TypeError(
        `option redact has no "${key}": give headers and query, each a list to add or a function to replace the defaults`,
      );
    }
  }
  const { headers, query } = option as { headers?: unknown; query?: unknown };
  return makePolicy(
    resolveList(headers, DEFAULT_REDACTED_HEADERS, 'redact.headers'),
    resolveList(query, DEFAULT_REDACTED_QUERY, 'redact.query'),
    true,
  );
}

/**
 * `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]` (RFC 9110, section 11.4),
 * with `auth-scheme = token`. The scheme says how a request authenticates, which is worth
 * logging; what follows it is the secret.
 */
const AUTH_SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) +[^ ]/;

/** Headers whose value starts with an authentication scheme that is kept. */
const SCHEME_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization']);

/**
 * Headers whose value is a URL, masked as one. `Location` and `Content-Location` lose their
 * fragment whole (`redactLocation`); `Refresh` (`5; url=...`) is masked as a Location after
 * its delay.
 */
const URL_HEADERS: ReadonlySet<string> = new Set([
  'referer',
  'referrer',
  'location',
  'content-location',
  'refresh',
]);

function maskValue(name: string, value: string): string {
  if (SCHEME_HEADERS.has(name)) {
    const scheme = AUTH_SCHEME.exec(value);
    if (scheme !== null) return `${scheme[1]} ${MASK}`;
  }
  return MASK;
}

/** Whether a header's value may be masked at all: listed, or a URL. `name` is lower-case. */
export function mayMaskHeader(policy: RedactPolicy, name: string): boolean {
  return policy.headers.has(name) || (policy.urls && URL_HEADERS.has(name));
}

/** The header value with a secret masked; `name` is lower-case. */
export function maskHeader<T>(policy: RedactPolicy, name: string, value: T): T | string {
  if (value === undefined || value === null) return value;
  if (policy.headers.has(name)) return maskValue(name, String(value));
  if (typeof value !== 'string' || !policy.urls || !URL_HEADERS.has(name)) return value;
  if (name === 'location' || name === 'content-location') return redactLocation(policy, value);
  return name === 'refresh' ? redactRefresh(policy, value) : redactUrl(policy, value);
}

/**
 * What precedes the URL of a `Refresh` header, which browsers obey as HTML's `<meta
 * http-equiv="refresh">`: the delay, `;` or `,`, then `url=` (or nothing) and an optional
 * quote. Every part is optional, so it always matches, without backtracking.
 */
const REFRESH_PREFIX = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?["']?/i;

/** A `Refresh` value with its URL masked as a `Location`, a closing quote kept. */
function redactRefresh(policy: RedactPolicy, value: string): string {
  const prefix = (REFRESH_PREFIX.exec(value) as RegExpExecArray)[0];
  const quote = prefix.charAt(prefix.length - 1);
  const quoted = (quote === '"' || quote === "'") && value.endsWith(quote);
  const end = quoted && value.length > prefix.length ? value.length - 1 : value.length;
  const url = value.slice(prefix.length, end);
  const masked = redactLocation(policy, url);
  return masked === url ? value : `${prefix}${masked}${value.slice(end)}`;
}

const QUESTION_MARK = 0x3f;

function decodedName(key: string): string {
  const spaced = key.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced).toLowerCase();
  } catch {
    // A malformed escape leaves the key undecoded, as qs leaves it; qs has turned `%5B` and
    // `%5D` into brackets before (so `a%ZZ%5Btoken%5D` is `a%ZZ` then `token`).
    return spaced.replace(/%5B/gi, '[').replace(/%5D/gi, ']').toLowerCase();
  }
}

/**
 * Whether a parameter's name is listed. A bracketed name (`qs`'s grammar, which Express 4 and
 * Rails-style forms use: `user[password]`, `access_token[]`, `a[b][token]`) is listed when
 * its base or any bracketed part is, since each of them is a key the application reads.
 */
function isListedKey(policy: RedactPolicy, key: string): boolean {
  const name = decodedName(key);
  if (policy.query.has(name)) return true;
  // URLSearchParams drops a `?` its text starts with: the query of `/p??token=S`, handed to it
  // as it is, has `token` first.
  if (name.charCodeAt(0) === QUESTION_MARK && policy.query.has(name.slice(1))) return true;
  if (!name.includes('[')) return false;
  for (const part of name.split(/[[\]]/)) if (part !== '' && policy.query.has(part)) return true;
  return false;
}

/** Whether `text` may hold a listed parameter from `from` on (see `queryHint`). */
function mayHoldListed(policy: RedactPolicy, text: string, from: number): boolean {
  const hint = policy.queryHint;
  if (hint === undefined) return false;
  hint.lastIndex = from;
  return hint.test(text);
}

/**
 * The query string (without `?`) with the values of listed parameters masked, keys kept; a
 * fragment after it (a request target sent with one) is masked as a fragment.
 */
export function redactQuery(policy: RedactPolicy, query: string): string {
  return mayHoldListed(policy, query, 0) ? maskQueryAndFragment(policy, query) : query;
}

/** `]=` or `%5D=`, where `qs` ends a key when a part holds one. */
const BRACKET_EQUALS = /(?:\]|%5D)=/i;
/** What separates parameters inside an `&`-separated part of a query. */
const QUERY_SEPARATORS = /(;)/;
/** The same in a fragment, which may hold a query of its own (`#/reset?token=...`). */
const FRAGMENT_SEPARATORS = /([;?#])/;

/**
 * A query or a fragment (`&`-separated parts) with the value of each listed parameter masked,
 * under every reading an application may give it:
 * - Node's `querystring` (Express's `simple`), URLSearchParams and `qs` end a key at the
 *   first `=`;
 * - `qs` (Express's `extended`) ends it at the first `]=` when the part holds one (`%5D=`
 *   too: it reads `%5B` and `%5D` as brackets first), so `a=b[token]=S` is `a=b` then `token`;
 * - `;` separates parameters for parsers that follow HTML 4's advice (Rack 2, Python before
 *   3.9.2, Go before 1.17): `a=1;token=S` is `token` there.
 * Keys are kept. A fragment is read so too: OAuth's implicit grant returns its tokens as
 * `#access_token=...&state=...`, and a single-page application's route can carry a query.
 */
function maskParameters(policy: RedactPolicy, text: string, separators: RegExp): string {
  const pairs = text.split('&');
  let masked = false;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i] as string;
    const done = maskPair(policy, pair, separators);
    if (done !== pair) {
      pairs[i] = done;
      masked = true;
    }
  }
  return masked ? pairs.join('&') : text;
}

/** One `&`-separated part masked under every reading (see `maskParameters`). */
function maskPair(policy: RedactPolicy, pair: string, separators: RegExp): string {
  const eq = pair.indexOf('=');
  if (eq === -1) return pair;
  if (isListedKey(policy, pair.slice(0, eq))) return `${pair.slice(0, eq + 1)}${QUERY_MASK}`;
  const bracket = BRACKET_EQUALS.exec(pair);
  const end = bracket === null ? -1 : bracket.index + bracket[0].length - 1;
  if (end > eq && isListedKey(policy, pair.slice(0, end))) {
    return `${maskSegments(policy, pair.slice(0, end), separators)}=${QUERY_MASK}`;
  }
  return maskSegments(policy, pair, separators);
}

/** The parameters after the first separator of `text` (a `;`, say) masked by their first `=`. */
function maskSegments(policy: RedactPolicy, text: string, separators: RegExp): string {
  // Split with the separator captured: the parameters are at even indices from 2.
  const parts = text.split(separators);
  let masked = false;
  for (let i = 2; i < parts.length; i += 2) {
    const part = parts[i] as string;
    const eq = part.indexOf('=');
    if (eq !== -1 && isListedKey(policy, part.slice(0, eq))) {
      parts[i] = `${part.slice(0, eq + 1)}${QUERY_MASK}`;
      masked = true;
    }
  }
  return masked ? parts.join('') : text;
}

/** A query, possibly followed by `#` and a fragment, with both masked. */
function maskQueryAndFragment(policy: RedactPolicy, text: string): string {
  const hash = text.indexOf('#');
  if (hash === -1) return maskParameters(policy, text, QUERY_SEPARATORS);
  const query = text.slice(0, hash);
  const fragment = text.slice(hash + 1);
  const maskedQuery = maskParameters(policy, query, QUERY_SEPARATORS);
  const maskedFragment = maskParameters(policy, fragment, FRAGMENT_SEPARATORS);
  if (maskedQuery === query && maskedFragment === fragment) return text;
  return `${maskedQuery}#${maskedFragment}`;
}

/**
 * Where the authority (and so the userinfo) of a URL starts: after `scheme://` (RFC 3986,
 * section 3), after the `//` of a protocol-relative reference, and wherever a WHATWG URL
 * parser (browsers, Node's `URL`) finds one: it reads `\` as `/`, and after a special scheme
 * any number of slashes, none included (`https:\\ann:pw@host`, `https:ann:pw@host`).
 */
const AUTHORITY_START = /^(?:(?:https?|wss?|ftp):[/\\]*|(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]{2})/i;

/**
 * A URL with its userinfo masked as OpenTelemetry asks of `url.full`:
 * `https://REDACTED:REDACTED@host/`, or `https://REDACTED@host/` for a user name alone (often
 * a token itself, as in `https://<token>@github.com`).
 */
function maskUserinfo(url: string): string {
  if (url.indexOf('@') === -1) return url;
  const authority = AUTHORITY_START.exec(url);
  if (authority === null) return url;
  const start = authority[0].length;
  // `authority = [ userinfo "@" ] host [ ":" port ]`, up to the first "/", "?" or "#" (or
  // "\", which a WHATWG parser reads as "/").
  const end = url.slice(start).search(/[/\\?#]/);
  const at = url.lastIndexOf('@', end === -1 ? url.length : start + end);
  if (at < start) return url;
  const colon = url.indexOf(':', start);
  const mask = colon !== -1 && colon < at ? `${QUERY_MASK}:${QUERY_MASK}` : QUERY_MASK;
  return `${url.slice(0, start)}${mask}${url.slice(at)}`;
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/** Whether a URL starts as an origin-form request target (`/p`), which has no userinfo. */
function isPathOnly(url: string): boolean {
  if (url.charCodeAt(0) !== SLASH) return false;
  const second = url.charCodeAt(1);
  return second !== SLASH && second !== BACKSLASH;
}

/**
 * A request target or a URL with its secrets masked: the userinfo of an absolute or
 * protocol-relative URL, and the values of listed parameters in its query and its fragment.
 * A URL with a query is searched from its `?` on, as before fragments were masked: a URL
 * without a secret costs one `indexOf` and one test of `queryHint` (two `indexOf` without a
 * query). So the parameters of a fragment that a `?` follows (`#access_token=...?x`) are not
 * searched; a fragment's own query (`#/reset?token=...`) is.
 */
export function redactUrl(policy: RedactPolicy, url: string): string {
  if (!policy.urls) return url;
  const target = isPathOnly(url) ? url : maskUserinfo(url);
  let start = target.indexOf('?');
  if (start === -1) start = target.indexOf('#');
  if (start === -1 || !mayHoldListed(policy, target, start)) return target;
  // A "?" inside the fragment starts no query: the fragment's own parameters are masked.
  const hash = target.indexOf('#');
  if (hash !== -1 && hash < start) start = hash;
  const text = target.slice(start + 1);
  const masked =
    start === hash
      ? maskParameters(policy, text, FRAGMENT_SEPARATORS)
      : maskQueryAndFragment(policy, text);
  return masked === text ? target : `${target.slice(0, start + 1)}${masked}`;
}

/**
 * A `Location` masked: as any URL, and its fragment whole. A fragment is read only by the
 * browser's scripts, and is where OAuth's implicit grant returns its tokens
 * (`#access_token=...`): a server's log gains nothing from it.
 */
export function redactLocation(policy: RedactPolicy, url: string): string {
  const masked = redactUrl(policy, url);
  const hash = masked.indexOf('#');
  if (!policy.urls || hash === -1 || hash === masked.length - 1) return masked;
  return `${masked.slice(0, hash + 1)}${QUERY_MASK}`;
}

/**
 * A URL as a text line writes it (`:url`, `:referrer`): masked, escaped, and `-` when there is
 * none. The one test of `urlHint` finds the rare URL with work to do.
 */
export function urlText(policy: RedactPolicy, url: string | undefined): string {
  if (url === undefined || url === '') return '-';
  return policy.urlHint.test(url) ? escapeLogField(redactUrl(policy, url)) : url;
}
