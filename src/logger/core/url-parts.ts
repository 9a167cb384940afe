// The parts of a request's URL that logs report: the target as sent (secrets masked), its path,
// its query (secrets masked) and the route pattern the framework matched.

import type { LogRequest } from '../types.js';
import type { Exchange } from './exchange.js';
import { type RedactPolicy, redactQuery, redactUrl } from './redact.js';

/** The URL as the client sent it: Express and Connect rewrite `req.url` inside mounted apps. */
export function fullUrl(req: LogRequest): string | undefined {
  return (req as { originalUrl?: string }).originalUrl || req.url;
}

/**
 * `scheme "://" authority` of an absolute-form target (RFC 9112, section 3.2.2), or of an
 * absolute URL (what a Web `request.url` is).
 */
export const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path of a request target, without the query. For an absolute-form target
 * (`http://user:pass@host/p?q`, as a client talking to a proxy sends it) that is the path
 * component alone (`/p`): the scheme and authority, userinfo included, are no part of it.
 */
export function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const origin = url.charCodeAt(0) === 0x2f ? null : ORIGIN.exec(url);
  const from = origin === null ? url : url.slice(origin[0].length);
  const at = from.indexOf('?');
  const path = at === -1 ? from : from.slice(0, at);
  // An absolute URL without a path asks for "/" (RFC 9110, section 4.2.3).
  return origin !== null && path === '' ? '/' : path;
}

/** The query of a request target without its `?`, listed parameters masked; or undefined. */
export function queryOf(url: string | undefined, policy: RedactPolicy): string | undefined {
  const at = url === undefined ? -1 : url.indexOf('?');
  if (at === -1 || at === (url as string).length - 1) return undefined;
  return redactQuery(policy, (url as string).slice(at + 1));
}

/** `:url`: the request target as sent, its userinfo and listed parameters masked. */
export function maskedUrl(req: LogRequest, policy: RedactPolicy): string | undefined {
  const url = fullUrl(req);
  return url === undefined ? url : redactUrl(policy, url);
}

/** The path of the request target, without the query. */
export function urlPath(req: LogRequest): string | undefined {
  return pathOf(fullUrl(req));
}

/** The query without its `?`, listed parameters masked; undefined when there is none. */
export function urlQuery(req: LogRequest, policy: RedactPolicy): string | undefined {
  return queryOf(fullUrl(req), policy);
}

interface RoutedRequest {
  readonly baseUrl?: unknown;
  readonly route?: { readonly path?: unknown };
}

/**
 * The route pattern that matched (`/users/:id`), when the framework records one: Express sets
 * `req.route` for the route being handled, with a path relative to the router it is mounted
 * on (`req.baseUrl`). A pattern given as a RegExp or an array has no single string form.
 */
export function requestRoute(req: LogRequest): string | undefined {
  const { baseUrl, route } = req as RoutedRequest;
  const path = route?.path;
  if (typeof path !== 'string') return undefined;
  return typeof baseUrl === 'string' ? baseUrl + path : path;
}

/**
 * The route of an exchange (the `route` token, `http.route`): what its door learnt from the
 * framework, else what the request records. Absent when neither knows: never the raw path.
 */
export function exchangeRoute(exchange: Exchange): string | undefined {
  return exchange.route ?? requestRoute(exchange.req);
}
