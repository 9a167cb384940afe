// The size of a Web Response's body when it can be known without reading a stream: what lets
// `fetchLogger` hand the handler's Response on untouched for a format that reads the size
// (json, ecs, `:res-body-bytes`). Passing a body through a counting stream costs more than the
// whole line, and a Response made from a string or bytes then loses the Content-Length the
// runtime would have sent (Deno's server, srvx: the stream goes out chunked).
//
// The Fetch standard keeps a body's "source" and "length" (extract a body: a string's UTF-8
// bytes, a BufferSource's byte length; none for a stream) but exposes neither. Where a runtime
// keeps them where they can be read, they are read here, feature-detected, one small function
// per runtime; anywhere else the answer is "unknown" and the caller counts as before.

import { reportedSize } from '../../http-facts.js';

/**
 * The symbol found for each description: a runtime keys every Response's state with the same
 * symbol, so once found it is read directly. Listing an object's symbols and reading their
 * descriptions, twice a response, was 1.7 % of a `fetchLogger('json')` request's profile on
 * Node 20; with the key kept, the two lookups cost 150-250 ns a response instead of 270-290.
 */
const foundKeys = new Map<string, symbol>();

/** An own property keyed by a symbol of this description, if the object has one. */
function symbolValue(object: object, description: string): unknown {
  const found = foundKeys.get(description);
  if (found !== undefined) {
    const value = (object as Record<symbol, unknown>)[found];
    if (value !== undefined) return value;
  }
  for (const key of Object.getOwnPropertySymbols(object)) {
    if (key.description === description) {
      foundKeys.set(description, key);
      return (object as Record<symbol, unknown>)[key];
    }
  }
  return undefined;
}

/** The byte length of a body's source: a string as UTF-8, bytes as they are; else unknown. */
function sourceBytes(source: unknown): number | undefined {
  if (typeof source === 'string') return Buffer.byteLength(source, 'utf8');
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) return source.byteLength;
  return typeof Blob === 'function' && source instanceof Blob ? source.size : undefined;
}

/** A body as the Fetch standard models it: `{ stream, source, length }` (undici, Deno). */
function lengthOfBody(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { length, source } = body as { length?: unknown; source?: unknown };
  if (typeof length === 'number' && Number.isSafeInteger(length) && length >= 0) return length;
  return sourceBytes(source);
}

/**
 * Node 20 and 22 (undici): the response's state under a symbol described `state`, its body's
 * `length` set for a string or bytes. Node 24 and later keep it in private fields: unknown.
 */
function undiciLength(response: Response): number | undefined {
  const state = symbolValue(response, 'state');
  return typeof state === 'object' && state !== null
    ? lengthOfBody((state as { body?: unknown }).body)
    : undefined;
}

/** Deno: the inner response under a symbol described `response`, its body's `source`. */
function denoLength(response: Response): number | undefined {
  const inner = symbolValue(response, 'response');
  return typeof inner === 'object' && inner !== null
    ? lengthOfBody((inner as { body?: unknown }).body)
    : undefined;
}

/**
 * @hono/node-server's own Response (it replaces the global one on Node): a string or bytes
 * body kept, with its status and headers, under a symbol described `cache` until something
 * reads the body as a stream.
 */
function honoNodeLength(response: Response): number | undefined {
  const cache = symbolValue(response, 'cache');
  return Array.isArray(cache) ? sourceBytes(cache[1]) : undefined;
}

/**
 * The body's size in bytes if it is known without reading it and the body is still there to
 * send: the Content-Length the handler set, or the length of the string or bytes the Response
 * was made from, where the runtime keeps it readable; undefined otherwise (a stream, Bun, Node
 * 24 and later, srvx's own Response), and then only counting the body as it is read tells.
 * @hono/node-server's Response is asked first: reading its `body` or `bodyUsed` would drop
 * what it keeps to send a string without a stream.
 */
export function sizeWithoutStream(response: Response): number | undefined {
  const hono = honoNodeLength(response);
  const announced = response.headers.get('content-length');
  if (announced !== null) {
    return hono !== undefined || !response.bodyUsed ? reportedSize(announced) : undefined;
  }
  if (hono !== undefined) return hono;
  if (Object.getOwnPropertySymbols(response).length === 0 || response.bodyUsed) return undefined;
  return undiciLength(response) ?? denoLength(response);
}
