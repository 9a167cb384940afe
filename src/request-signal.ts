// A Web Request's abort signal, as both doors may read it (the parsers' `read`, fetchLogger).

import { ON_DENO } from './runtime.js';

/**
 * The request's abort signal, except on Deno: there, reading `request.signal` of a request
 * Deno.serve made prints a warning (once per process) that the signal also aborts when a
 * response succeeds (Deno 2's legacy behaviour). A client that leaves mid-body errors the
 * body's stream there, which a reader sees; one that leaves before the answer is not seen.
 * Elsewhere the signal tells a client that left (Bun, @hono/node-server, srvx) and a Request
 * whose body the application made (an aborted `fetch` being proxied).
 */
export function requestSignal<S>(request: { readonly signal?: S }): S | undefined {
  return ON_DENO ? undefined : request.signal;
}
