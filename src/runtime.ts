// Which JavaScript runtime this is, where the code must do otherwise: Bun and Deno (each has
// its own global, `Bun` or `Deno`; asking whether a global exists reads none), and Cloudflare's
// workerd, where `CF-Connecting-IP` is set by Cloudflare's edge and a request's I/O (its
// timers too) belongs to that request, ending with it.

/** Whether this is Bun. */
export const ON_BUN = 'Bun' in globalThis;

/** Whether this is Deno. */
export const ON_DENO = 'Deno' in globalThis;

/** Whether this is workerd; undefined until first asked. */
let workerd: boolean | undefined;

/**
 * Whether this is Cloudflare's workerd, where `CF-Connecting-IP` is set by Cloudflare's edge
 * and cannot come from the client. Anywhere else that header is whatever the client sent.
 * Asked when needed, not when the module loads: loading reads no global (a test environment's
 * `navigator`, jsdom's, say), and only a request without any other address asks.
 */
export function onWorkerd(): boolean {
  workerd ??=
    (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent ===
    'Cloudflare-Workers';
  return workerd;
}
