// A fetch handler `(request, ...rest) => Response` served on Node, on 127.0.0.1 port 0, by
// one of the adapters Node users run it with: @hono/node-server (which hands the handler
// `{ incoming, outgoing }` as its second argument) or srvx (whose request has `ip`).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { serve } from 'srvx/node';
import type { TestServer } from './server.js';

export type FetchAdapter = 'node-server' | 'srvx';

export const fetchAdapters: readonly FetchAdapter[] = ['node-server', 'srvx'];

type AnyHandler = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export async function serveFetch(
  handler: AnyHandler,
  adapter: FetchAdapter = 'node-server',
): Promise<TestServer> {
  const fetch = handler as (request: Request, env: unknown) => Response | Promise<Response>;
  let server: http.Server;
  let port: number;
  let close: () => Promise<void>;
  if (adapter === 'node-server') {
    // The globals are left alone: other tests in the process use Node's own Request/Response.
    server = createAdaptorServer({ fetch, overrideGlobalObjects: false }) as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  } else {
    const srvx = serve({
      fetch: fetch as never,
      port: 0,
      hostname: '127.0.0.1',
      silent: true,
      gracefulShutdown: false,
    });
    await srvx.ready();
    server = srvx.node?.server as http.Server;
    port = (server.address() as AddressInfo).port;
    close = () => srvx.close(true);
  }
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    transport: 'http',
    nextOutcome: () => Promise.reject(new Error('a fetch handler has no outcome to report')),
    close,
  };
}

const encoder = new TextEncoder();

/** A body sent in pieces: `first,` at once, `last` when `last` settles. */
/**
 * `text` as a one-piece stream: a body whose size the logger can only learn by reading it (a
 * Response made from the string itself may be sized without its stream, see docs/web.md).
 */
export function streamOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
}

export function piecesUntil(
  last: Promise<unknown>,
  cancelled?: () => void,
): ReadableStream<Uint8Array> {
  let step = 0;
  return new ReadableStream({
    async pull(controller) {
      step++;
      if (step === 1) controller.enqueue(encoder.encode('first,'));
      else if (step === 2) {
        await last;
        controller.enqueue(encoder.encode('last'));
      } else controller.close();
    },
    cancel() {
      cancelled?.();
    },
  });
}
