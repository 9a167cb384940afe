// Run by memory.test.ts in a fresh process with --expose-gc: one scenario per run, measured
// from inside, reported as one JSON line on stdout. Usage: memory.ts <scenario>
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { loadSubject } from '../../helpers/hostile.js';

const scenario = process.argv[2] ?? '';
const { parsers } = await loadSubject();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const json = parsers.json();
const form = parsers.urlencoded({ extended: true, limit: '20mb' });
const raw = parsers.raw();
const outcomes: Record<string, number> = {};

// The `verify` and schema scenarios: the application's promise never settles, and the
// application keeps it (in `held`), as one that forgot a request would.
const held: Promise<unknown>[] = [];
let waitsStarted = 0;
const never = (): Promise<never> => {
  waitsStarted++;
  const promise = new Promise<never>(() => {});
  held.push(promise);
  return promise;
};
const waiting =
  scenario === 'schema-timeout'
    ? parsers.json({
        schema: { '~standard': { version: 1, vendor: 'test', validate: never } },
        schemaTimeout: 10,
      })
    : parsers.json({ verify: never, verifyTimeout: scenario === 'verify-pending' ? 60_000 : 10 });

// The tiny-chunks scenario's parser: tiny-chunks <parser> <variant> <limit in KiB>.
const tiny = scenario === 'tiny-chunks' ? tinyChunksParser() : null;

const server = http.createServer((req, res) => {
  if (req.url === '/ignore') {
    // The tiny-chunks warm-up: the same chunks read and dropped, no parser.
    req.resume();
    req.on('end', () => res.end('ok'));
    return;
  }
  const mw =
    req.url === '/tiny'
      ? (tiny as NonNullable<typeof tiny>).middleware
      : req.url === '/form'
        ? form
        : req.url === '/raw'
          ? raw
          : req.url === '/wait'
            ? waiting
            : json;
  mw(req, res, (err?: unknown) => {
    const type = err ? String((err as { type?: unknown }).type) : 'ok';
    outcomes[type] = (outcomes[type] ?? 0) + 1;
    res.statusCode = err ? ((err as { status?: number }).status ?? 500) : 200;
    res.end(type);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as net.AddressInfo;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function post(
  path: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', path, method: 'POST', headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends a head promising `length` bytes and half of them, then resets the connection. */
function aborted(): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"a":"',
      );
      setImmediate(() => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', () => resolve());
  });
}

async function compressZeros(encoding: string, megabytes: number): Promise<Buffer> {
  const mb = Buffer.alloc(1024 * 1024);
  const encoder =
    encoding === 'gzip'
      ? zlib.createGzip({ level: 9 })
      : encoding === 'deflate'
        ? zlib.createDeflate({ level: 9 })
        : zlib.createBrotliCompress({
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
          });
  const out: Buffer[] = [];
  encoder.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((r) => encoder.on('end', r));
  for (let i = 0; i < megabytes; i++) {
    if (!encoder.write(mb)) await new Promise((r) => encoder.once('drain', r));
  }
  encoder.end();
  await ended;
  return Buffer.concat(out);
}

function settle(): Promise<void> {
  return new Promise((r) => setTimeout(r, 100));
}

function measure() {
  gc!();
  gc!();
  const mem = process.memoryUsage();
  const resources: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
  return {
    heapUsed: mem.heapUsed,
    external: mem.external,
    rss: mem.rss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    arrayBuffers: mem.arrayBuffers,
    resources,
  };
}

const jsonHeaders = { 'content-type': 'application/json' };

/** One of ten request kinds, by index: valid, invalid, too large, refused, or aborted. */
async function mixed(i: number): Promise<void> {
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3:
      await post('/', jsonHeaders, `{"i":${i},"list":[1,2,3],"s":"${'x'.repeat(i % 500)}"}`);
      return;
    case 4:
      await post(
        '/form',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `a[b][${i}]=c&d[]=1&d[]=2`,
      );
      return;
    case 5:
      await post('/', jsonHeaders, '{"unterminated":');
      return;
    case 6:
      await post(
        '/',
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        'not gzip',
      );
      return;
    case 7:
      await post('/', { 'content-type': 'application/json; charset=klingon' }, '{}');
      return;
    case 8:
      await post('/raw', { 'content-type': 'application/octet-stream' }, Buffer.alloc(150 * 1024));
      return;
    default:
      await aborted();
  }
}

async function run(count: number, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await mixed(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * One parser with one option that makes it keep the body's bytes (`verify`, `rawBody`) or
 * decode another charset than UTF-8 (`charset`: UTF-16LE, ISO-8859-1 for forms, whose
 * parser takes no other), the body it is sent (just under the limit once encoded) and its
 * Content-Type.
 */
function tinyChunksParser() {
  const [kind = '', variant = '', kib = '1024'] = process.argv.slice(3);
  const limit = Number(kib) * 1024;
  const options = {
    limit,
    ...(variant === 'verify' ? { verify: () => {} } : {}),
    ...(variant === 'rawBody' ? { rawBody: true } : {}),
  };
  const charset = variant !== 'charset' ? 'utf-8' : kind === 'urlencoded' ? 'latin1' : 'utf16le';
  if (variant === 'gzip') return gzipTinyChunks(parsers.json(options), limit);
  const label = { 'utf-8': 'utf-8', latin1: 'iso-8859-1', utf16le: 'utf-16le' }[charset];
  const room = (charset === 'utf16le' ? limit / 2 : limit) - 64;
  const [type, text] =
    kind === 'json'
      ? ['application/json', JSON.stringify({ a: 'x'.repeat(room) })]
      : kind === 'urlencoded'
        ? ['application/x-www-form-urlencoded', `a=${'x'.repeat(room)}`]
        : kind === 'text'
          ? ['text/plain', 'x'.repeat(room)]
          : ['application/octet-stream', 'x'.repeat(room)];
  const middleware =
    kind === 'json'
      ? parsers.json(options)
      : kind === 'urlencoded'
        ? parsers.urlencoded(options)
        : kind === 'text'
          ? parsers.text(options)
          : parsers.raw(options);
  const contentType = kind === 'raw' ? type : `${type}; charset=${label}`;
  const body = Buffer.from(text, charset as BufferEncoding);
  return { middleware, body, warmUp: body.subarray(0, body.length >> 4), contentType };
}

/**
 * A gzip JSON body that inflates to nearly the limit and compresses only about 2:1 (hex
 * digits), so hundreds of thousands of one-byte chunks reach the decompressor.
 */
function gzipTinyChunks(middleware: ReturnType<typeof parsers.json>, limit: number) {
  // Bytes of a linear congruential sequence, written as hex: no repeats for gzip to find.
  const json = (bytes: number) => {
    const noise = Buffer.allocUnsafe(bytes);
    let x = 1;
    for (let i = 0; i < bytes; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      noise[i] = x >>> 24;
    }
    return JSON.stringify({ a: noise.toString('hex') });
  };
  const contentType = 'application/json\r\nContent-Encoding: gzip';
  const room = (limit - 64) >> 1;
  return {
    middleware,
    body: zlib.gzipSync(json(room)),
    warmUp: zlib.gzipSync(json(room >> 4)),
    contentType,
  };
}

/**
 * The whole request, its body as HTTP/1.1 chunks of one byte each (`1\r\nx\r\n`), written
 * at once: node:http hands every chunk over as a 'data' event of its own, a one-byte view of
 * the socket's read buffer.
 */
function oneByteChunks(path: string, contentType: string, body: Buffer): Buffer {
  const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  const wire = Buffer.allocUnsafe(head.length + body.length * 6 + 5);
  let at = wire.write(head, 'latin1');
  for (const byte of body) {
    at += wire.write('1\r\n', at, 'latin1');
    wire[at++] = byte;
    at += wire.write('\r\n', at, 'latin1');
  }
  wire.write('0\r\n\r\n', at, 'latin1');
  return wire;
}

/**
 * Sends a whole request on a fresh connection; resolves to the response's status. The socket
 * is not half-closed: node:http closes a connection whose client ended its side, and an answer
 * made after the body's end (a compressed body inflating) would be lost with it.
 */
function sendRaw(request: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      answer += text;
    });
    socket.on('end', () => resolve(Number(answer.slice(9, 12))));
    socket.on('error', reject);
  });
}

const report: Record<string, unknown> = { scenario };

if (scenario === 'bomb-gzip' || scenario === 'bomb-br' || scenario === 'bomb-deflate') {
  const encoding = scenario.slice(5);
  // Compressed as a stream of 1 MB pieces, so making the bomb never holds 50 MB here and the
  // peak RSS measured below is the parser's alone.
  const bomb = await compressZeros(encoding, 50);
  const small =
    encoding === 'gzip'
      ? zlib.gzipSync('{"a":1}')
      : encoding === 'deflate'
        ? zlib.deflateSync('{"a":1}')
        : zlib.brotliCompressSync('{"a":1}');
  const headers = { 'content-type': 'application/json', 'content-encoding': encoding };
  // Warm up the code paths (and the decoder) so the figure is the bomb's alone.
  for (let i = 0; i < 20; i++) await post('/', headers, small);
  await settle();
  const before = measure();
  const status = await post('/', headers, bomb);
  await settle();
  const after = measure();
  Object.assign(report, {
    status,
    bombBytes: bomb.length,
    peakGrowth: after.maxRss - before.maxRss,
    before,
    after,
  });
} else if (scenario === 'tiny-chunks') {
  const { body, contentType, warmUp: shorter } = tiny as NonNullable<typeof tiny>;
  const request = oneByteChunks('/tiny', contentType, body);
  // The parser's paths warmed up on a body a sixteenth as long.
  const warmUp = oneByteChunks('/tiny', contentType, shorter);
  for (let i = 0; i < 2; i++) await sendRaw(warmUp);
  await settle();
  const before = measure();
  const started = Date.now();
  const status = await sendRaw(request);
  const ms = Date.now() - started;
  await settle();
  const after = measure();
  Object.assign(report, {
    status,
    ms,
    bodyBytes: body.length,
    peakGrowth: after.maxRss - before.maxRss,
    before,
    after,
  });
} else if (scenario === 'ampersands') {
  // A Buffer made up front: the client side costs nothing more while the server parses.
  const body = Buffer.alloc(10 * 1024 * 1024, '&');
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  for (let i = 0; i < 5; i++) await post('/form', headers, 'a=1&b=2');
  await settle();
  const before = measure();
  const status = await post('/form', headers, body);
  await settle();
  const after = measure();
  Object.assign(report, { status, peakGrowth: after.maxRss - before.maxRss, before, after });
} else if (scenario === 'nested-key') {
  // An extended form whose last key has one 5 MB group: the form is parsed and dropped, and
  // nothing of that key's text may stay reachable from the parser once the request is over.
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  for (let i = 0; i < 10; i++) await post('/form', headers, 'a[b]=1&c[d][]=2');
  await settle();
  const before = measure();
  const status = await post('/form', headers, Buffer.from(`a[${'g'.repeat(5 * 1024 * 1024)}]=1`));
  await settle();
  const after = measure();
  Object.assign(report, { status, heapGrowth: after.heapUsed - before.heapUsed, before, after });
} else if (scenario === 'churn') {
  const count = Number(process.argv[3] ?? 10_000);
  await run(1000, 32);
  await settle();
  agent.destroy();
  await settle();
  const before = measure();
  const started = Date.now();
  await run(count, 32);
  const ms = Date.now() - started;
  agent.destroy();
  await settle();
  const after = measure();
  Object.assign(report, {
    requests: count,
    ms,
    heapGrowth: after.heapUsed - before.heapUsed,
    before,
    after,
  });
} else if (
  scenario === 'verify-timeout' ||
  scenario === 'schema-timeout' ||
  scenario === 'verify-pending'
) {
  // Bodies of 90 KB (two or more chunks off the socket), one Buffer shared by every request
  // so the client side holds one copy: what the server keeps shows in the growth.
  const count = Number(process.argv[3] ?? 300);
  const body = Buffer.from(JSON.stringify({ s: 'x'.repeat(90 * 1024) }));
  // Warm-up (a pending verify would wait a minute: the plain parser warms its path).
  const warmUp = scenario === 'verify-pending' ? '/' : '/wait';
  for (let i = 0; i < 10; i++) await post(warmUp, jsonHeaders, body);
  await settle();
  const before = measure();
  waitsStarted = 0;
  if (scenario === 'verify-pending') agent.maxSockets = Number.POSITIVE_INFINITY;
  const sent = Array.from({ length: count }, () => post('/wait', jsonHeaders, body));
  if (scenario === 'verify-pending') {
    // Measured while every verify is still pending: what each request holds then (each on a
    // connection of its own, see above).
    while (waitsStarted < count) await new Promise((r) => setTimeout(r, 10));
  } else await Promise.all(sent);
  await settle();
  const after = measure();
  Object.assign(report, {
    requests: count,
    bodyBytes: body.length,
    heapGrowth: after.heapUsed - before.heapUsed,
    externalGrowth: after.external - before.external,
    held: held.length,
    before,
    after,
  });
  report.outcomes = outcomes;
  console.log(JSON.stringify(report));
  process.exit(0);
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

report.outcomes = outcomes;
agent.destroy();
server.close();
console.log(JSON.stringify(report));
