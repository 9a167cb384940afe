// Run by forwarded-lists.test.ts and properties-forwarded.test.ts: servers whose logger has
// `trustProxy` set, in a process of their own, so that a walk of the forwarding header that
// never ends stops this process, not the test's: the test's requests then time out and fail
// under their names. Each server writes `:url :remote-addr` to stdout, prefixed with its index.
// Usage: forwarded-walk.ts '<JSON list of { door, trustProxy, forwardedHeader? }>'
// Prints `ports <JSON list>` on stderr once every server listens.
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import Koa from 'koa';
import type { TrustProxy } from '../../../src/logger/types.js';
import { type fetchAdapters, serveFetch } from '../../helpers/fetch.js';
import { loadSubject } from '../../helpers/hostile.js';

export type WalkDoor =
  | 'node'
  | 'node-h2c'
  | 'koa'
  | 'fastify'
  | `fetch-${(typeof fetchAdapters)[number]}`;

export interface WalkServer {
  readonly door: WalkDoor;
  readonly trustProxy: TrustProxy;
  readonly forwardedHeader?: 'x-forwarded-for' | 'forwarded';
}

const { logger, fetchLogger, koa, fastify } = await loadSubject();

function listening(server: http.Server | http2.Http2Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

async function start({ door, ...options }: WalkServer, index: number): Promise<number> {
  const format = `${index} :url :remote-addr`;
  const given = { stream: process.stdout, ...options };
  if (door === 'node') {
    const log = logger(format, given);
    return listening(http.createServer((req, res) => log(req, res, () => res.end('ok'))));
  }
  if (door === 'node-h2c') {
    // HTTP/2 has no header lines to join: node:http2 joins repeated fields with ", " itself.
    const log = logger(format, given) as unknown as (
      req: http2.Http2ServerRequest,
      res: http2.Http2ServerResponse,
      next: () => void,
    ) => void;
    return listening(http2.createServer((req, res) => log(req, res, () => res.end('ok'))));
  }
  if (door === 'koa') {
    const app = new Koa();
    app.use(koa.logger(format, given));
    app.use((ctx) => {
      ctx.body = 'ok';
    });
    return listening(http.createServer(app.callback()));
  }
  if (door === 'fastify') {
    const app = Fastify({ logger: false });
    app.register(fastify.httpwareLogger, { format, ...given });
    app.get('/*', async () => 'ok');
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as AddressInfo).port;
  }
  const adapter = door.slice('fetch-'.length) as (typeof fetchAdapters)[number];
  const log = fetchLogger(format, given);
  return (
    await serveFetch(
      log(() => new Response('ok')),
      adapter,
    )
  ).port;
}

const servers = JSON.parse(process.argv[2] ?? '[]') as WalkServer[];
const ports: number[] = [];
for (const [index, server] of servers.entries()) ports.push(await start(server, index));
process.stderr.write(`ports ${JSON.stringify(ports)}\n`);
