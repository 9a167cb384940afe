// Fetch handlers served on Node for tests: through srvx and through @hono/node-server, the two
// adapters that turn node:http's request into a Web Request (its body `Readable.toWeb(req)`).
// Each on 127.0.0.1, port 0.

import type { AddressInfo } from 'node:net';
import { serve as honoServe } from '@hono/node-server';
import { serve as srvxServe } from 'srvx';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The adapters a Web handler is served through on Node. */
export const webAdapters = ['srvx', 'hono'] as const;
export type WebAdapter = (typeof webAdapters)[number];

export interface WebServer {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `handler` through the given adapter. */
export async function serveFetch(adapter: WebAdapter, handler: FetchHandler): Promise<WebServer> {
  if (adapter === 'srvx') {
    const server = srvxServe({ port: 0, hostname: '127.0.0.1', fetch: handler, silent: true });
    await server.ready();
    const { port } = new URL(server.url as string);
    return { origin: `http://127.0.0.1:${port}`, close: () => server.close(true) };
  }
  const server = await new Promise<ReturnType<typeof honoServe>>((resolve) => {
    const made = honoServe({ fetch: handler, port: 0, hostname: '127.0.0.1' }, () => resolve(made));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
