// Redaction: secrets that clients and servers put in headers and query strings are masked
// before they reach a log line. Logs are copied to collectors, tickets and laptops; a bearer
// token or a session cookie in them is a credential anyone with log access can replay (and
// personal data under the GDPR). The default lists cover the headers and query parameters
// that carry credentials in common practice (OAuth 2.0, signed S3 and GCS URLs, CSRF tokens);
// the logger's `redact` option replaces them, and `redact: false` turns masking off.

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
]);

export const DEFAULT_REDACTED_QUERY: readonly string[] = Object.freeze([
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'password',
  'secret',
  'client_secret',
  'api_key',
  'apikey',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'X-Goog-Signature',
  'sig',
  'signature',
]);

/** What one logger masks, resolved once from its `redact` option. Names are lower-case. */
export interface RedactPolicy {
  readonly headers: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  /**
   * Finds a query string that may hold a listed parameter: a listed name right before `=`, or
   * any percent-encoded key (which must be decoded to be compared). Most queries do not match,
   * and skip the per-parameter work.
   */
  readonly queryHint: RegExp | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function policyOf(headers: readonly string[], query: readonly string[]): RedactPolicy {
  const names = query.map((name) => name.toLowerCase());
  const hint =
    names.length === 0
      ? undefined
      : new RegExp(`(?:^|&)(?:${names.map(escapeRegExp).join('|')})(?:=|&|$)|%`, 'i');
  return {
    headers: new Set(headers.map((name) => name.toLowerCase())),
    query: new Set(names),
    queryHint: hint,
  };
}

export const DEFAULT_POLICY: RedactPolicy = policyOf(
  DEFAULT_REDACTED_HEADERS,
  DEFAULT_REDACTED_QUERY,
);

export const NO_REDACTION: RedactPolicy = policyOf([], []);

function nameList(value: unknown, option: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name === '')) {
    throw new TypeError(`option ${option} must be an array of non-empty strings`);
  }
  return value as string[];
}

/**
 * The `redact` option: absent or `true` for the default lists, `false` for none, or
 * `{ headers, query }` where each given list replaces the default one.
 */
export function resolveRedact(option: unknown): RedactPolicy {
  if (option === undefined || option === null || option === true) return DEFAULT_POLICY;
  if (option === false) return NO_REDACTION;
  if (typeof option !== 'object' || Array.isArray(option)) {
    throw new TypeError('option redact must be false or an object { headers, query }');
  }
  const { headers, query } = option as { headers?: unknown; query?: unknown };
  return policyOf(
    nameList(headers, 'redact.headers') ?? DEFAULT_REDACTED_HEADERS,
    nameList(query, 'redact.query') ?? DEFAULT_REDACTED_QUERY,
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

function maskValue(name: string, value: string): string {
  if (SCHEME_HEADERS.has(name)) {
    const scheme = AUTH_SCHEME.exec(value);
    if (scheme !== null) return `${scheme[1]} ${MASK}`;
  }
  return MASK;
}

/** The header value with a secret masked; `name` is lower-case. */
export function maskHeader<T>(policy: RedactPolicy, name: string, value: T): T | string {
  if (value === undefined || value === null || !policy.headers.has(name)) return value;
  return maskValue(name, String(value));
}

function decodedName(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    // A malformed escape cannot name a listed parameter once decoded; compare it as sent.
    return key.toLowerCase();
  }
}

/** The query string (without `?`) with the values of listed parameters masked, keys kept. */
export function redactQuery(policy: RedactPolicy, query: string): string {
  if (policy.queryHint === undefined || !policy.queryHint.test(query)) return query;
  const pairs = query.split('&');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i] as string;
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    if (policy.query.has(decodedName(pair.slice(0, eq)))) {
      pairs[i] = `${pair.slice(0, eq + 1)}${QUERY_MASK}`;
    }
  }
  return pairs.join('&');
}
