// The built-in tokens, each a small named function of (req, res, arg). They return raw values;
// the token registry escapes every string on the way out.

import type { LogRequest, LogResponse, TokenFn } from '../types.js';
import { traceFlagsText } from './active-span.js';
import { loggedUser } from './basic-auth.js';
import { bodyBytes } from './body-bytes.js';
import { formatDate } from './clf-date.js';
import { errorMessage, errorType } from './failure.js';
import { arrivalOf, currentLine } from './line.js';
import { dateRenderer } from './local-date.js';
import {
  DEFAULT_POLICY,
  maskHeader,
  mayMaskHeader,
  type RedactPolicy,
  redactUrl,
} from './redact.js';
import {
  arrivalAddress,
  frameworkIp,
  headerGivenToWriteHead,
  responseTime,
  socketAddress,
  spanOf,
  statusCodeOf,
  totalTime,
} from './timing.js';
import { traceIdOf } from './traceparent.js';
import { exchangeRoute, maskedUrl, requestRoute, urlPath, urlQuery } from './url-parts.js';

type Builtin = (req: LogRequest, res: LogResponse, arg?: string) => string | undefined;

/** A header value as one string: repeated headers (arrays) joined with ", ". */
function headerValueText(value: string | readonly string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : (value as string | undefined);
}

export const method: Builtin = function method(req) {
  return req.method;
};

export const responseTimeToken: Builtin = function responseTimeToken(req, res, digits) {
  return responseTime(req, res, digits);
};

const totalTimeToken: Builtin = function totalTimeToken(req, res, digits) {
  return totalTime(req, res, digits);
};

const date: Builtin = function date(_req, _res, format) {
  return formatDate(Date.now(), format || 'web');
};

export const status: Builtin = function status(_req, res) {
  // No head written and no answer (the client went away first, or `immediate`): no status.
  const code = statusCodeOf(res);
  return code === undefined ? undefined : String(code);
};

/** The URL the request came from, as sent, from the request's headers. */
export function referrerIn(headers: LogRequest['headers']): string | undefined {
  // "Referer" is the header's standard (misspelt) name; some clients send "Referrer".
  return headerValueText(headers.referer || headers.referrer);
}

/** The URL the request came from, as sent. */
export function referrerHeader(req: LogRequest): string | undefined {
  return referrerIn(req.headers);
}

/** `:referrer` for a redaction policy: the URL the request came from, its secrets masked. */
function referrerOf(req: LogRequest, policy: RedactPolicy): string | undefined {
  const value = referrerHeader(req);
  return value === undefined ? value : redactUrl(policy, value);
}

export const remoteAddr: Builtin = function remoteAddr(req) {
  // The address recorded on arrival still answers once the socket is gone.
  return frameworkIp(req) || arrivalAddress(req) || socketAddress(req);
};

const pid: Builtin = function pid() {
  return String(process.pid);
};

export const httpVersion: Builtin = function httpVersion(req) {
  const major = req.httpVersionMajor;
  const minor = req.httpVersionMinor;
  // The versions node:http serves, without building the same string on every line.
  if (major === 1 && minor === 1) return '1.1';
  if (major === 1 && minor === 0) return '1.0';
  return `${major}.${minor}`;
};

const userAgent: Builtin = function userAgent(req) {
  return req.headers['user-agent'] as string | undefined;
};

/** A request header's value; `name` is lower-case, as node:http keys `req.headers`. */
function requestHeaderNamed(req: LogRequest, name: string): string | undefined {
  return headerValueText(req.headers[name]);
}

export const responseHeader: TokenFn<LogRequest, LogResponse> = function responseHeader(
  _req,
  res,
  field?: string,
) {
  if (field === undefined || !res.headersSent) return undefined;
  // Headers given to writeHead win, as they do in morgan (on-headers copies them over).
  const value = headerGivenToWriteHead(res, field) ?? res.getHeader(field);
  // A number (e.g. a Content-Length set as one) stays a number: not escaped, printed as is.
  return typeof value === 'number' ? value : headerValueText(value);
};

const requestIdToken: TokenFn<LogRequest, LogResponse> = function requestIdToken(req) {
  // Set by the requestId middleware (or the application's own); a number stays a number.
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

// The trace id is the active span's; without one, the incoming `traceparent`'s (its parent id
// is the caller's span, never written as this request's).
export const traceId: Builtin = function traceId(req) {
  return spanOf(req)?.traceId ?? traceIdOf(req.headers.traceparent);
};

const spanId: Builtin = function spanId(req) {
  return spanOf(req)?.spanId;
};

const traceFlags: Builtin = function traceFlags(req) {
  const span = spanOf(req);
  return span === undefined ? undefined : traceFlagsText(span.traceFlags);
};

// Text, as `:status` is (a number 0 would be written "-", as morgan writes falsy values);
// undefined ("-") when the size is unknown.
const resBodyBytes: Builtin = function resBodyBytes(req, res) {
  const bytes = bodyBytes(req, res);
  return bytes === undefined ? undefined : String(bytes);
};

const path: Builtin = function path(req) {
  return urlPath(req);
};

const route: Builtin = function route(req) {
  const exchange = arrivalOf(req);
  return exchange === undefined ? requestRoute(req) : exchangeRoute(exchange);
};

/** The built-in tokens whose output depends on what is redacted. */
export interface RedactingTokens {
  readonly url: TokenFn<LogRequest, LogResponse>;
  readonly referrer: TokenFn<LogRequest, LogResponse>;
  readonly req: TokenFn<LogRequest, LogResponse>;
  readonly res: TokenFn<LogRequest, LogResponse>;
  readonly query: TokenFn<LogRequest, LogResponse>;
  readonly 'remote-user': TokenFn<LogRequest, LogResponse>;
}

function makeRedactingTokens(policy: RedactPolicy): RedactingTokens {
  return {
    url: function url(req) {
      // Express and Connect rewrite `req.url` inside mounted apps; `originalUrl` is the full one.
      return maskedUrl(req, policy);
    },
    referrer: function referrer(req) {
      return referrerOf(req, policy);
    },
    req: function requestHeaderRedacted(req, _res, field?: string) {
      if (field === undefined) return undefined;
      const name = field.toLowerCase();
      return maskHeader(policy, name, requestHeaderNamed(req, name));
    },
    res: function responseHeaderRedacted(req, res, field?: string) {
      const value = responseHeader(req, res, field as string);
      // Most values are not secrets, and many are absent: the name is compared only when needed.
      return value === undefined
        ? value
        : maskHeader(policy, (field as string).toLowerCase(), value);
    },
    query: function query(req) {
      return urlQuery(req, policy);
    },
    // An API key sent as the Basic user name is masked where `Authorization` is.
    'remote-user': function remoteUser(req) {
      return loggedUser(policy, req.headers.authorization);
    },
  };
}

const redactingByPolicy = new WeakMap<RedactPolicy, RedactingTokens>();

/**
 * The tokens whose output depends on what is redacted, for `policy`: `:url` and `:referrer`
 * mask URLs, the header tokens mask listed headers and URL-valued ones, `:query` masks
 * listed parameters and `:remote-user` an API key given as the Basic user name. The registry holds them for the default lists; a logger with its own
 * `redact` option uses its own. Made once per policy.
 */
export function redactingTokens(policy: RedactPolicy): RedactingTokens {
  let tokens = redactingByPolicy.get(policy);
  if (tokens === undefined) {
    tokens = makeRedactingTokens(policy);
    redactingByPolicy.set(policy, tokens);
  }
  return tokens;
}

/** A built-in token bound to the argument of one format part: `(req, res) => value`. */
export type BoundBuiltin = (req: LogRequest, res: LogResponse) => unknown;

/**
 * The built-in token `name` for a redaction policy (the registry's for the default lists)
 * bound to the argument of one part of a format string, with what depends only on that
 * argument done once rather than on every line: a header name lower-cased and checked against
 * the redaction lists, a date format picked. The value is the token's own, unescaped.
 */
export function boundBuiltin(
  name: string,
  arg: string | undefined,
  policy: RedactPolicy = DEFAULT_POLICY,
): BoundBuiltin {
  if ((name === 'req' || name === 'res') && arg !== undefined) {
    const lower = arg.toLowerCase();
    const masked = mayMaskHeader(policy, lower);
    if (name === 'req') {
      return masked
        ? (req) => maskHeader(policy, lower, requestHeaderNamed(req, lower))
        : (req) => requestHeaderNamed(req, lower);
    }
    return masked
      ? (req, res) => maskHeader(policy, lower, responseHeader(req, res, arg))
      : (req, res) => responseHeader(req, res, arg);
  }
  if (name === 'date') {
    const format = arg || 'web';
    if (format === 'clf' || format === 'iso' || format === 'web') {
      return () => formatDate(Date.now(), format);
    }
    // `local`, `iso-local` or a layout, its renderer found once for the part.
    const render = dateRenderer(format);
    return render === undefined ? () => undefined : () => render(Date.now());
  }
  const redacting = redactingTokens(policy) as unknown as Record<
    string,
    TokenFn<LogRequest, LogResponse>
  >;
  const fn = (Object.hasOwn(redacting, name) ? redacting[name] : builtinTokens[name]) as TokenFn<
    LogRequest,
    LogResponse
  >;
  return (req, res) => fn(req, res, arg as string);
}

// What the `slow` and `sample` options say of the line being made (see line.ts).
const slowToken: TokenFn<LogRequest, LogResponse> = function slow() {
  return currentLine()?.slow;
};

const sampleRate: TokenFn<LogRequest, LogResponse> = function sampleRate() {
  return currentLine()?.rate;
};

/** Every built-in token by name. */
export const builtinTokens: Readonly<Record<string, TokenFn<LogRequest, LogResponse>>> = {
  method,
  'response-time': responseTimeToken,
  'total-time': totalTimeToken,
  date,
  status,
  'remote-addr': remoteAddr,
  pid,
  'http-version': httpVersion,
  'user-agent': userAgent,
  ...redactingTokens(DEFAULT_POLICY),
  'request-id': requestIdToken,
  'trace-id': traceId,
  'span-id': spanId,
  'trace-flags': traceFlags,
  path,
  route,
  'error-type': errorType,
  'error-message': errorMessage,
  'res-body-bytes': resBodyBytes,
  slow: slowToken,
  'sample-rate': sampleRate,
};

/** Tokens that read what `writeHead` recorded (the logger watches it only if needed). */
export const HEAD_TOKENS: ReadonlySet<string> = new Set(['response-time', 'res']);

/**
 * Built-in tokens whose text is made here from numbers only (a date, a process id, a
 * duration): it cannot contain anything to escape, so the line skips the test for them.
 */
export const NOTHING_TO_ESCAPE: ReadonlySet<string> = new Set([
  'date',
  'pid',
  'res-body-bytes',
  'response-time',
  'sample-rate',
  'slow',
  'total-time',
]);
