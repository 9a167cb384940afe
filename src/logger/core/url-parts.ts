// The parts of a request's URL that structured logs report on their own: the path, the query
// (secrets masked) and the route pattern the framework matched.

import type { IncomingMessage } from 'node:http';
import { type RedactPolicy, redactQuery } from './redact.js';

/** The URL as the client sent it: Express and Connect rewrite `req.url` inside mounted apps. */
export function fullUrl(req: IncomingMessage): string | undefined {
  return (req as { originalUrl?: string }).originalUrl || req.url;
}

/** The path of a request target, without the query. */
export function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/** The query of a request target without its `?`, listed parameters masked; or undefined. */
export function queryOf(url: string | undefined, policy: RedactPolicy): string | undefined {
  const at = url === undefined ? -1 : url.indexOf('?');
  if (at === -1 || at === (url as string).length - 1) return undefined;
  return redactQuery(policy, (url as string).slice(at + 1));
}

/** The path of the request target, without the query. */
export function urlPath(req: IncomingMessage): string | undefined {
  return pathOf(fullUrl(req));
}

/** The query without its `?`, listed parameters masked; undefined when there is none. */
export function urlQuery(req: IncomingMessage, policy: RedactPolicy): string | undefined {
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
export function routeOf(req: IncomingMessage): string | undefined {
  const { baseUrl, route } = req as RoutedRequest;
  const path = route?.path;
  if (typeof path !== 'string') return undefined;
  return typeof baseUrl === 'string' ? baseUrl + path : path;
}
