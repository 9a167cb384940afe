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
import { symbolValue } from '../../own-symbol.js';

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

/** The size of a body not used yet, from a runtime's own state; undefined: unknown or used. */
type LengthReader = (response: Response) => number | undefined;

/**
 * The runtime's own Responses, once one was read (their prototype), and how they are read:
 * every Response of that prototype keeps its state the same way, and none is
 * @hono/node-server's (a class of its own), so for them neither its cache nor the listing of
 * their symbols is asked for. On undici both lookups missed for every Response, each listing
 * its symbols: 1 % of a `fetchLogger('json')` request's profile on Node 20.
 */
let runtimeResponses: { readonly prototype: object; readonly length: LengthReader } | undefined;

/** The runtime's state, an object; the Response's kind is then known from now on. */
function learnt(response: Response, length: LengthReader, state: unknown): state is object {
  if (typeof state !== 'object' || state === null) return false;
  runtimeResponses ??= { prototype: Object.getPrototypeOf(response) as object, length };
  return true;
}

/**
 * Whether undici's body stream was read or cancelled, what `bodyUsed` answers, read from the
 * stream's own state (Node's ReadableStream keeps `disturbed` under a symbol described
 * `kState`) where it is there. undici's getter gets there through two helpers and a symbol
 * lookup that misses: 3.2 % of a `fetchLogger('json')` request's profile on Node 20, more than
 * half of what its size cost.
 */
function undiciBodyUsed(response: Response, stream: unknown): boolean {
  const state =
    typeof stream === 'object' && stream !== null ? symbolValue(stream, 'kState') : null;
  const disturbed = (state as { disturbed?: unknown } | null | undefined)?.disturbed;
  return typeof disturbed === 'boolean' ? disturbed : response.bodyUsed;
}

/**
 * Node 20 and 22 (undici): the response's state under a symbol described `state`, its body's
 * `length` set for a string or bytes. Node 24 and later keep it in private fields: unknown.
 */
function undiciLength(response: Response): number | undefined {
  const state = symbolValue(response, 'state');
  if (!learnt(response, undiciLength, state)) return undefined;
  const body = (state as { body?: { stream?: unknown } | null }).body;
  return undiciBodyUsed(response, body?.stream) ? undefined : lengthOfBody(body);
}

/** Deno: the inner response under a symbol described `response`, its body's `source`. */
function denoLength(response: Response): number | undefined {
  const inner = symbolValue(response, 'response');
  if (!learnt(response, denoLength, inner) || response.bodyUsed) return undefined;
  return lengthOfBody((inner as { body?: unknown }).body);
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
 * what it keeps to send a string without a stream. `headers`: the Response's, read once.
 */
export function sizeWithoutStream(
  response: Response,
  headers: Headers = response.headers,
): number | undefined {
  const runtime = runtimeResponses;
  const known =
    runtime !== undefined && runtime.prototype === Object.getPrototypeOf(response)
      ? runtime.length
      : undefined;
  const hono = known === undefined ? honoNodeLength(response) : undefined;
  const announced = headers.get('content-length');
  if (announced !== null) {
    return hono !== undefined || !response.bodyUsed ? reportedSize(announced) : undefined;
  }
  if (hono !== undefined) return hono;
  if (known !== undefined) return known(response);
  if (Object.getOwnPropertySymbols(response).length === 0) return undefined;
  return undiciLength(response) ?? denoLength(response);
}
