// The opt-in request-id middleware: one id per request, on `req.id` (where Express and
// pino-http users look for it), echoed in a response header and logged by `:request-id`.
//
// An incoming id is kept when it is trusted and well-formed, so that a request keeps one id
// across the proxies and services it passes through (as Hono's and Rails' request ids do).
// Anything else gets a random UUID: never a counter, which restarts with each process and
// collides across instances. Only an id that passed the grammar below, or one we made, is set:
// a hostile header never reaches the log or the response as it was sent.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestIdMiddleware, RequestIdOptions } from '../types.js';
import { isUnset } from './option-off.js';

/**
 * 1 to 128 characters that need no quoting in a log, a header or a URL, and that keep the id
 * one harmless path segment where an application files something under it
 * (`dumps/${req.id}.json`, `/traces/${req.id}`): no `/` or `\`, which would add segments, no
 * `..` anywhere and no `.` first, so the id is never `.`, `..` or a hidden file's name.
 */
const VALID_ID = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._:=+@-]{1,128}$/;

/** `field-name = token` (RFC 9110, section 5.1). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface ResolvedRequestIdOptions {
  /** Lower-case, as node:http keys `req.headers`. */
  readonly header: string;
  readonly trust: boolean;
}

export function resolveRequestIdOptions(options: unknown): ResolvedRequestIdOptions {
  if (isUnset(options)) return { header: 'x-request-id', trust: true };
  if (typeof options !== 'object') throw new TypeError('argument options must be an object');
  const { header = 'x-request-id', trust = true } = options as Record<string, unknown>;
  if (typeof header !== 'string' || !HEADER_NAME.test(header)) {
    throw new TypeError('option header must be a header name');
  }
  if (typeof trust !== 'boolean') throw new TypeError('option trust must be a boolean');
  return { header: header.toLowerCase(), trust };
}

/** Whether `value` is an acceptable request id (a string of 1 to 128 safe characters). */
export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_ID.test(value);
}

/**
 * The id of a request that came with `incoming` (its id header, when trusted): that id when it
 * is well-formed, else a new random UUID (node:crypto's, not the `crypto` global, which Jest's
 * jsdom environment and some test setups lack).
 */
export function requestIdFor(incoming: unknown): string {
  return isValidRequestId(incoming) ? incoming : randomUUID();
}

/** A new request id, for a request that has none. */
export function newRequestId(): string {
  return randomUUID();
}

/** Creates the request-id middleware. */
export function requestId<
  Req extends IncomingMessage = IncomingMessage,
  Res extends ServerResponse = ServerResponse,
>(options?: RequestIdOptions | null): RequestIdMiddleware<Req, Res> {
  const { header, trust } = resolveRequestIdOptions(options);
  return function requestId(req, res, next) {
    const incoming = trust ? req.headers[header] : undefined;
    const id = requestIdFor(incoming);
    (req as { id?: string }).id = id;
    if (!res.headersSent) res.setHeader(header, id);
    next();
  };
}
