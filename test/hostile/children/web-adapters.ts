// Run by web-adapters.test.ts: a fetch handler reading its body with `json.read(request)`,
// served on Node through srvx or @hono/node-server (both turn node:http's request into a Web
// Request whose body is `Readable.toWeb(req)`), sent one hostile body from a raw socket, then a
// plain request. Reports one JSON line: what each request got, and the memory it cost. A crash
// (Node 20's ERR_INVALID_STATE out of the adapter) ends the process before the report.
// Usage: web-adapters.ts <srvx|hono> <scenario>
import type http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { serve as honoServe } from '@hono/node-server';
import { serve as srvxServe } from 'srvx';
import { loadSubject } from '../../helpers/hostile.js';

const [adapter = 'srvx', scenario = 'chunked'] = process.argv.slice(2);
const { parsers } = await loadSubject();
const gc = (globalThis as { gc?: () => void }).gc;

const handler = async (request: Request): Promise<Response> => {
  // The application awaits something first (a session lookup, say): meanwhile the body piles
  // up in node:http's request, unread, as it does on any busy server. Then something looks at
  // the body before the parser (a wrapper, an `if (request.body)`), which makes the adapter's
  // stream, and a microtask passes: the stream has asked its Node request for more by then.
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (request.body === null) return new Response('no body', { status: 400 });
  await null;
  try {
    const body = await parsers.json.read(request, { limit: '1mb' });
    return Response.json(body);
  } catch (err) {
    return parsers.toResponse(err);
  }
};

/** The status of each response node:http handed to the OS in full ('finish'), in order. */
const answered: number[] = [];

function watch(server: http.Server): void {
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on('finish', () => answered.push(res.statusCode));
  });
}

async function listen(): Promise<number> {
  if (adapter === 'srvx') {
    const server = srvxServe({ port: 0, hostname: '127.0.0.1', fetch: handler, silent: true });
    await server.ready();
    watch(server.node?.server as http.Server);
    return Number(new URL(server.url as string).port);
  }
  return new Promise((resolve) => {
    const server = honoServe({ fetch: handler, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(info.port),
    );
    watch(server as http.Server);
  });
}

/**
 * Sends a head and body chunks as fast as the socket takes them; resolves once the server
 * closes the connection with the status read (0: none), and whether the connection was reset.
 * A server that answers and closes while this client is still sending may reset the
 * connection (unread data in its kernel), and Node's socket then fails a write (EPIPE) and is
 * destroyed, possibly before reading an answer that had arrived: `reset` says so.
 */
function send(
  port: number,
  head: string,
  chunks: Iterable<Buffer>,
): Promise<{ status: number; reset: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let reset = false;
    socket.on('data', (data) => {
      answer += data.toString('latin1');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      reset = err.code === 'EPIPE' || err.code === 'ECONNRESET';
    });
    socket.on('close', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), reset }),
    );
    socket.write(head);
    const iterator = chunks[Symbol.iterator]();
    const more = (): void => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (!socket.write(next.value)) {
          socket.once('drain', more);
          return;
        }
      }
      // No end(): a half-closed connection is a client gone to node:http (the server closes it).
    };
    more();
  });
}

function* repeat(chunk: Buffer, times: number): Iterable<Buffer> {
  for (let i = 0; i < times; i++) yield chunk;
}

/** A chunked JSON body of 8 MB in 1 KB chunks, far past the 1 MB limit. */
function* chunked(): Iterable<Buffer> {
  const data = Buffer.alloc(1024, 0x20);
  const frame = Buffer.concat([
    Buffer.from(`${data.length.toString(16)}\r\n`),
    data,
    Buffer.from('\r\n'),
  ]);
  yield* repeat(frame, 8192);
  yield Buffer.from('0\r\n\r\n');
}

/** 128 MB of JSON whitespace, gzipped to about 130 KB, made 1 MB at a time. */
async function gzipBomb(): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const megabyte = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < 128; i++) {
    if (!gzip.write(megabyte)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  await new Promise((resolve) => gzip.end(resolve));
  return Buffer.concat(out);
}

const port = await listen();
const bomb = await gzipBomb();
gc?.();
const before = process.memoryUsage();
const peakBefore = process.resourceUsage().maxRSS;
let result: { status: number; reset: boolean };
if (scenario === 'bomb') {
  const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\nConnection: close\r\n\r\n`;
  result = await send(port, head, [bomb]);
} else if (scenario === 'announced') {
  // A Content-Length of 4 MB: over the limit, and more than is worth reading off, so the body
  // is refused unread and its stream cancelled.
  const length = 4 * 1024 * 1024;
  const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
  result = await send(port, head, [Buffer.alloc(length, 0x20)]);
} else {
  const head =
    'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
  result = await send(port, head, chunked());
}
gc?.();
const after = process.memoryUsage();
const peakAfter = process.resourceUsage().maxRSS;
const small = Buffer.from('{"still":"here"}');
const next = await send(
  port,
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${small.length}\r\nConnection: close\r\n\r\n`,
  [small],
);
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    reset: result.reset,
    answered: answered[0] ?? 0,
    next: next.status,
    rssGrowth: after.rss - before.rss,
    peakGrowth: (peakAfter - peakBefore) * 1024,
    heapGrowth: after.heapUsed - before.heapUsed + (after.external - before.external),
  })}\n`,
);
process.exit(0);
