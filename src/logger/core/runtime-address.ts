// Runtime facts the fetch door reads from what the runtime hands a handler: the client's
// address, one small function per runtime (srvx, Bun, Deno, Node under an adapter, workerd)
// behind one interface, `runtimeAddress`, and Node's own request under an adapter. Never a
// forwarding header a client could forge: `trustProxy` is the only way to read one.
// Which runtime is serving is told by what the handler was given (srvx's `request.ip`, Bun's
// `server`, Deno's `info`), so a runtime is recognised without reading a global per request;
// the one global, workerd's user agent, is read once, when first needed.

import { onWorkerd } from '../../runtime.js';

/** What an adapter on Node hands over of Node's own request (its version, its socket). */
export interface NodeRequest {
  readonly httpVersionMajor?: number;
  readonly httpVersionMinor?: number;
  readonly socket?: { readonly remoteAddress?: string | undefined } | null;
}

/** Node's request under @hono/node-server (`env.incoming`) or srvx (`request.runtime.node.req`). */
export function nodeRequestOf(request: Request, second: unknown): NodeRequest | undefined {
  const incoming = (second as { incoming?: NodeRequest } | null | undefined)?.incoming;
  if (typeof incoming === 'object' && incoming !== null) return incoming;
  const runtime = (request as { runtime?: { node?: { req?: NodeRequest } } }).runtime;
  const req = runtime?.node?.req;
  return typeof req === 'object' && req !== null ? req : undefined;
}

/** A non-empty string, or undefined. */
export function address(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** srvx: `request.ip`, on every runtime it serves. */
function srvxAddress(request: Request): string | undefined {
  return address((request as { ip?: unknown }).ip);
}

/** Bun: `server.requestIP(request)`, the server being the handler's second argument. */
function bunAddress(request: Request, server: object, requestIP: Function): string | undefined {
  const found = requestIP.call(server, request) as { address?: unknown } | null | undefined;
  return address(found?.address);
}

/** Deno: `info.remoteAddr.hostname`, the info being the handler's second argument. */
function denoAddress(remoteAddr: object): string | undefined {
  return address((remoteAddr as { hostname?: unknown }).hostname);
}

/** Node under an adapter (@hono/node-server, srvx): its request's socket. */
function nodeAddress(node: NodeRequest | undefined): string | undefined {
  return address(node?.socket?.remoteAddress);
}

/** Cloudflare's workerd: `CF-Connecting-IP`, there only (see `onWorkerd`). */
function workerdAddress(request: Request): string | undefined {
  return onWorkerd() ? address(request.headers.get('cf-connecting-ip')) : undefined;
}

/**
 * The client's address as the runtime gave it to the handler (`second`: the handler's second
 * argument; `node`: Node's request under an adapter): srvx's, else Bun's or Deno's when the
 * second argument is theirs, else the Node socket's, else workerd's.
 */
export function runtimeAddress(
  request: Request,
  second: unknown,
  node: NodeRequest | undefined,
): string | undefined {
  const ip = srvxAddress(request);
  if (ip !== undefined) return ip;
  if (typeof second === 'object' && second !== null) {
    const { requestIP, remoteAddr } = second as { requestIP?: unknown; remoteAddr?: unknown };
    if (typeof requestIP === 'function') return bunAddress(request, second, requestIP);
    if (typeof remoteAddr === 'object' && remoteAddr !== null) return denoAddress(remoteAddr);
  }
  return nodeAddress(node) ?? workerdAddress(request);
}
