// A Web Request whose body the runtime holds whole in memory, as the string or bytes it was
// made from: `read` takes it with the runtime's own whole-body read (`request.bytes()`), which
// makes no stream, rather than through `request.body`, a stream the runtime must first make of
// it. Nothing is read that is not already there, so the limit holds as on a stream: the bytes
// are one chunk, counted against the announced length and the limit as a stream's one chunk
// would be, with the same answers. A body that comes from the network or from a stream the
// application gave (which may bring more than its Content-Length says) is never held: it is
// read through its stream, chunk by chunk.
//
// Deno: a Request made from a string, bytes or URLSearchParams keeps them "static" (ext/fetch/22_body.js:
// the inner request's `body.streamOrStatic` is `{ body, consumed }`) until its `body` is read,
// and `request.json()` then takes them without a stream. A body Deno.serve received, or a
// ReadableStream given to `new Request`, is a stream from the start. The inner request is read
// under its symbol (described `request`), feature-detected: any other shape is not held. On a
// 100-byte JSON body the stream (made, locked, read twice) was most of what `read` added to
// `request.json()` there. Elsewhere nothing is held: Node's undici makes the stream with the
// Request, and Bun keeps its bodies where JavaScript cannot tell one kind from another.

import { symbolValue } from '../own-symbol.js';
import { ON_DENO } from '../runtime.js';

/** The runtime's whole-body read of a held body. */
export interface HeldRequest {
  bytes(): Promise<Uint8Array>;
}

/** Whether the runtime holds this Request's body whole in memory, not yet read (see above). */
export function heldWhole(request: object): request is HeldRequest {
  if (!ON_DENO || typeof (request as Partial<HeldRequest>).bytes !== 'function') return false;
  const inner = symbolValue(request, 'request') as { body?: unknown } | undefined;
  const body = typeof inner === 'object' && inner !== null ? inner.body : undefined;
  const held = (body as { streamOrStatic?: unknown } | null | undefined)?.streamOrStatic;
  if (typeof held !== 'object' || held === null || held instanceof ReadableStream) return false;
  const { body: bytes, consumed } = held as { body?: unknown; consumed?: unknown };
  return consumed === false && (typeof bytes === 'string' || bytes instanceof Uint8Array);
}
