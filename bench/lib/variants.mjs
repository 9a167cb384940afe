// The variants every group compares: the floor (no middleware, or the least code that does the
// job), the incumbents (morgan, pino-http, body-parser) and httpware, all built from one spec
// so that a worker process can rebuild its variant from a line of JSON.

import { createWriteStream, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import querystring from 'node:querystring';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { loadHttpware } from './httpware.mjs';

const require = createRequire(import.meta.url);
/** Resolves a package from the repository's root, where the root's devDependencies are. */
const requireFromRoot = (name) =>
  createRequire(new URL('../../package.json', import.meta.url)).resolve(name);

// Every logger writes its lines here: the cost measured is the middleware's, not a file's.
// It keeps the count and the last line, for the harness's check that a logger does log.
export const discard = {
  lines: 0,
  last: '',
  write(line) {
    this.lines++;
    this.last = line;
    return true;
  },
};

export const LOGGER_FORMATS = {
  combined: 'combined',
  common: 'common',
  dev: 'dev',
  tiny: 'tiny',
  short: 'short',
  custom: ':method :url :status',
};

// Option that turns httpware's prototype-poisoning protection off for json (see
// src/parsers/types.ts); the default keeps it on.
export const HTTPWARE_PROTO_OFF = { onProtoPoisoning: 'ignore' };

// The schema of json 100 B's body (smallJson below), for the two ways of validating it with zod:
// `httpware-zod`, the parser's `schema` option; `httpware-zod-handler`, the parser then
// `schema.parse` where a handler would call it. Both leave the schema's output in req.body.
let smallUser;
function smallUserSchema() {
  const { z } = require('zod');
  smallUser ??= z.object({
    user: z.string(),
    email: z.string().email(),
    age: z.number().int().nonnegative(),
    admin: z.boolean(),
    tags: z.array(z.string()),
    score: z.number(),
  });
  return smallUser;
}

// The file of a variant that logs to disk (group logger-file), and how to wait until its lines
// are there, for the harness's check. One file per worker process, removed when it exits.
export const logFile = { path: '', flush: async () => {} };

function benchFile(impl) {
  logFile.path = join(tmpdir(), `httpware-bench-${process.pid}-${impl}.log`);
  process.on('exit', () => rmSync(logFile.path, { force: true }));
  return logFile.path;
}

// ---------------------------------------------------------------------------------------------
// Logger middleware

export async function loggerMiddleware({ impl, format }) {
  const fmt = LOGGER_FORMATS[format] ?? format;
  switch (impl) {
    case 'floor':
      return (_req, _res, next) => next();
    case 'morgan':
      return require('morgan')(fmt, { stream: discard });
    // The least work a correct combined line needs (a reference we were given): it always
    // writes combined, so it is only compared in that format.
    case 'minimal':
      return require('./minimal-logger.cjs')(fmt, { stream: discard });
    case 'pino-http': {
      const pino = require('pino');
      return require('pino-http')({ logger: pino({}, discard) });
    }
    case 'httpware': {
      const { logger } = await loadHttpware();
      return logger(fmt, { stream: discard });
    }
    // With the trustProxy option on (the bench's requests carry no forwarding header).
    case 'httpware-trust-proxy': {
      const { logger } = await loadHttpware();
      return logger(fmt, { stream: discard, trustProxy: 'loopback' });
    }
    // With OpenTelemetry's HTTP server metrics (docs/metrics.md) recorded into the SDK's
    // MeterProvider, with a reader as a Prometheus exporter has one between scrapes (each
    // request aggregated in memory). The SDK is the root's devDependency, resolved from the
    // package as the application's own would be: bench's dependencies are left as they are.
    case 'httpware-metrics': {
      const { logger } = await loadHttpware();
      const { MeterProvider, MetricReader } = require(
        requireFromRoot('@opentelemetry/sdk-metrics'),
      );
      class Unread extends MetricReader {
        async onForceFlush() {}
        async onShutdown() {}
      }
      const meter = new MeterProvider({ readers: [new Unread()] }).getMeter('bench');
      return logger(fmt, { stream: discard, metrics: { meter } });
    }
    // The same with a meter that keeps nothing: the logger's own part of the option's cost.
    case 'httpware-metrics-noop': {
      const { logger } = await loadHttpware();
      const instrument = { record() {}, add() {} };
      const meter = { createHistogram: () => instrument, createUpDownCounter: () => instrument };
      return logger(fmt, { stream: discard, metrics: { meter } });
    }
    // The incumbent pair the metrics option replaces: morgan for the line and
    // express-prom-bundle (prom-client's histogram) for the metrics, each timing the request
    // on its own. Labelled by method, status and path (normalised, its ids folded), as its
    // README shows for per-route series; a registry of its own per worker.
    case 'morgan-prom-bundle': {
      const promBundle = require('express-prom-bundle');
      const { Registry } = require('prom-client');
      const metrics = promBundle({
        includeMethod: true,
        includePath: true,
        promRegistry: new Registry(),
        autoregister: false,
      });
      const morgan = require('morgan')(fmt, { stream: discard });
      return (req, res, next) => metrics(req, res, () => morgan(req, res, next));
    }
    // Lines to a file (group logger-file): morgan with the append-mode write stream its README
    // shows, pino-http with pino's own default destination for a file (sonic-boom, sync), and
    // httpware's `destination` with its defaults.
    case 'morgan-file': {
      const stream = createWriteStream(benchFile(impl), { flags: 'a' });
      logFile.flush = () => new Promise((resolve) => stream.write('', resolve));
      return require('morgan')(fmt, { stream });
    }
    case 'pino-http-file': {
      const pino = require('pino');
      const stream = pino.destination(benchFile(impl));
      logFile.flush = async () => stream.flushSync();
      return require('pino-http')({ logger: pino({}, stream) });
    }
    case 'httpware-file': {
      const { logger } = await loadHttpware();
      const stream = logger.destination(benchFile(impl));
      logFile.flush = () => stream.flush();
      return logger(fmt, { stream });
    }
    // The same destination writing to /dev/null (group logger-file): the destination's own
    // work with no page cache or disk behind its writes. Each line is noted on its way, as the
    // discarding stream notes it, for the harness's check (two stores per line).
    case 'httpware-null': {
      const { logger } = await loadHttpware();
      const stream = logger.destination('/dev/null');
      const noted = {
        write(line) {
          discard.write(line);
          return stream.write(line);
        },
      };
      return logger(fmt, { stream: noted });
    }
    case 'floor-span':
      return inActiveSpan((_req, _res, next) => next());
    case 'httpware-span': {
      const { logger } = await loadHttpware();
      return inActiveSpan(logger(fmt, { stream: discard }));
    }
    // Another build side by side with this one (HTTPWARE_BENCH_BASE_ENTRY: its entries/index.mjs).
    case 'httpware-base': {
      const { logger } = await import(pathToFileURL(process.env.HTTPWARE_BENCH_BASE_ENTRY).href);
      return logger(fmt, { stream: discard });
    }
    default:
      throw new Error(`unknown logger variant ${impl}`);
  }
}

// `middleware` run with an OpenTelemetry span active, as the HTTP instrumentation runs the
// request: the context manager Node's SDK registers, one sampled span for every request (making
// spans is the SDK's cost, not the logger's).
function inActiveSpan(middleware) {
  const { context, ROOT_CONTEXT, trace } = require('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const span = trace.wrapSpanContext({
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: 1,
  });
  const active = trace.setSpan(ROOT_CONTEXT, span);
  return (req, res, next) => context.with(active, () => middleware(req, res, next));
}

// A browser-like GET, so combined's referrer and user-agent have something to print.
export function loggerRequest(host = 'bench.local') {
  return Buffer.from(
    'GET /api/items/42?sort=desc&page=3 HTTP/1.1\r\n' +
      `Host: ${host}\r\n` +
      'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n' +
      'Referer: https://bench.local/items?page=2\r\n' +
      'Accept: application/json\r\n' +
      'Accept-Language: en-GB,en;q=0.8\r\n' +
      'Connection: keep-alive\r\n\r\n',
  );
}

// ---------------------------------------------------------------------------------------------
// Parser cases

function jsonOfSize(bytes) {
  const items = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = {
      id: i,
      name: `item number ${i}`,
      price: Math.round(i * 137.31) / 100,
      tags: ['alpha', 'beta', `t${i % 7}`],
      active: i % 3 !== 0,
      owner: { id: 1000 + (i % 13), email: `user${i % 13}@example.com` },
    };
    items.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return JSON.stringify(items);
}

const smallJson = JSON.stringify({
  user: 'alice',
  email: 'alice@example.com',
  age: 34,
  admin: false,
  tags: ['a', 'b'],
  score: 98.5,
});

const flatForm = Array.from(
  { length: 20 },
  (_, i) => `field${i}=${encodeURIComponent(`value number ${i} & more`)}`,
).join('&');

// 20 flat fields as a browser sends them (the URL Standard's urlencoded serializer, which
// URLSearchParams implements): `+` for spaces, every other byte outside `*-._` and the
// alphanumerics as %XX of its UTF-8, so every fourth value's `ünï@code` is
// `%C3%BCn%C3%AF%40code`.
const browserForm = new URLSearchParams(
  Array.from({ length: 20 }, (_, i) => [
    `field${i}`,
    i % 4 === 0 ? `value ünï@code ${i} & more` : `value number ${i} & more`,
  ]),
).toString();

const nestedForm = [
  'user[name]=Alice%20Smith',
  'user[email]=alice%40example.com',
  'user[address][street]=1%20Main%20St',
  'user[address][city]=Springfield',
  'user[address][zip]=12345',
  'items[0][sku]=A-1&items[0][qty]=2',
  'items[1][sku]=B-7&items[1][qty]=1',
  'items[2][sku]=C-3&items[2][qty]=5',
  'tags[]=new&tags[]=sale&tags[]=blue',
  'shipping[method]=express&shipping[insured]=true',
  'note=please%20ring%20twice',
].join('&');

const text10k = 'The quick brown fox jumps over the lazy dog. '.repeat(228).slice(0, 10240);

const LIMIT = '2mb';

/**
 * kind: which parser; body(): the bytes on the wire (built on first use: the 1 MB bodies cost
 * time to make); type: Content-Type; encoding: Content-Encoding; extended: urlencoded's option;
 * connections: in-process concurrency (fewer for 1 MB bodies); rss: report peak RSS; slow: a
 * case whose batches need to be longer to hold enough requests.
 */
const CASES = {
  'json-100b': { kind: 'json', type: 'application/json', body: () => Buffer.from(smallJson) },
  'json-10kb': {
    kind: 'json',
    type: 'application/json',
    body: () => Buffer.from(jsonOfSize(10240)),
  },
  'json-1mb': {
    kind: 'json',
    type: 'application/json',
    body: () => Buffer.from(jsonOfSize(1024 * 1024)),
    connections: 2,
    rss: true,
    slow: true,
  },
  'urlencoded-flat': {
    kind: 'urlencoded',
    type: 'application/x-www-form-urlencoded',
    body: () => Buffer.from(flatForm),
    extended: false,
  },
  'urlencoded-browser': {
    kind: 'urlencoded',
    type: 'application/x-www-form-urlencoded',
    body: () => Buffer.from(browserForm),
    extended: false,
  },
  'urlencoded-nested': {
    kind: 'urlencoded',
    type: 'application/x-www-form-urlencoded',
    body: () => Buffer.from(nestedForm),
    extended: true,
  },
  'text-10kb': {
    kind: 'text',
    type: 'text/plain; charset=utf-8',
    body: () => Buffer.from(text10k),
  },
  'raw-1mb': {
    kind: 'raw',
    type: 'application/octet-stream',
    body: () => Buffer.alloc(1024 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789'),
    connections: 2,
    rss: true,
    slow: true,
  },
  'gzip-json-10kb': {
    kind: 'json',
    type: 'application/json',
    body: () => zlib.gzipSync(Buffer.from(jsonOfSize(10240))),
    plain: () => Buffer.from(jsonOfSize(10240)),
    encoding: 'gzip',
  },
  'json-1kb': { kind: 'json', type: 'application/json', body: () => Buffer.from(jsonOfSize(1024)) },
};

export const PARSER_CASE_NAMES = Object.keys(CASES);

const built = new Map();

/** The case with its bytes: { ...options, body: Buffer, plain?: Buffer }. */
export function parserCase(name) {
  let c = built.get(name);
  if (!c) {
    const spec = CASES[name];
    if (!spec) throw new Error(`unknown parser case ${name}`);
    c = { ...spec, name, body: spec.body(), plain: spec.plain?.() };
    built.set(name, c);
  }
  return c;
}

/** Options of a case without building its body, for the scheduler. */
export function parserCaseOptions(name) {
  const { body: _body, plain: _plain, ...options } = CASES[name];
  return options;
}

/** What req.body must be after parsing, for the harness's own check of each variant. */
export function expectedBody(c) {
  const text = (c.plain ?? c.body).toString('utf8');
  switch (c.kind) {
    case 'json':
      return JSON.parse(text);
    case 'urlencoded':
      return c.extended
        ? require('qs').parse(text, { depth: 32, arrayLimit: 100 })
        : { ...querystring.parse(text) };
    case 'text':
      return text;
    default:
      return c.plain ?? c.body;
  }
}

// The floor: floor-parsers.cjs, the reference we were given: the least code that does the job
// (querystring.parse, a small bracket nester for extended forms, synchronous zlib bounded by
// maxOutputLength, one Buffer.concat, JSON.parse), with body-parser's factory shape.
function floorParser(c) {
  const floor = require('./floor-parsers.cjs');
  const options = { limit: LIMIT };
  if (c.kind === 'urlencoded') options.extended = c.extended;
  return floor[c.kind](options);
}

// A second reference, to explain where time goes: the same libraries httpware uses (qs for
// extended forms, a streaming gunzip) with no checks at all.
function sameLibrariesFloor(c) {
  const decode = {
    json: (buf) => JSON.parse(buf.toString('utf8')),
    urlencoded: c.extended
      ? (buf) => require('qs').parse(buf.toString('utf8'))
      : (buf) => querystring.parse(buf.toString('utf8')),
    text: (buf) => buf.toString('utf8'),
    raw: (buf) => buf,
  }[c.kind];
  return (req, _res, next) => {
    const stream = req.headers['content-encoding'] === 'gzip' ? req.pipe(zlib.createGunzip()) : req;
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      try {
        req.body = decode(Buffer.concat(chunks));
      } catch (err) {
        next(err);
        return;
      }
      next();
    });
  };
}

// qs alone, as body-parser calls it (its options for the extended grammar), after the plainest
// read: the bound on what httpware's extended forms can cost while they stay on qs.
function qsAlone(c) {
  const qs = require('qs');
  return (req, _res, next) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let count = 1;
      for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) count++;
      req.body = qs.parse(text, {
        allowPrototypes: true,
        arrayLimit: c.extended ? Math.max(100, count) : count,
        depth: c.extended ? 32 : 0,
        charset: 'utf-8',
        parameterLimit: 1000,
        strictDepth: true,
      });
      next();
    });
  };
}

export async function parserMiddleware({ impl, kase }) {
  const c = parserCase(kase);
  const options = { limit: LIMIT };
  if (c.kind === 'urlencoded') options.extended = c.extended;
  switch (impl) {
    case 'bare':
      return (_req, _res, next) => next();
    case 'floor':
      return floorParser(c);
    case 'floor-samelib':
      return sameLibrariesFloor(c);
    case 'qs-alone':
      return qsAlone(c);
    case 'body-parser':
      return require('body-parser')[c.kind](options);
    case 'baseline': {
      const { parsers } = await import(pathToFileURL(process.env.HTTPWARE_BENCH_BASELINE).href);
      return parsers[c.kind](options);
    }
    case 'httpware':
    case 'httpware-proto-off': {
      const { parsers } = await loadHttpware();
      const extra = impl === 'httpware-proto-off' ? HTTPWARE_PROTO_OFF : {};
      return parsers[c.kind]({ ...options, ...extra });
    }
    case 'httpware-zod': {
      const { parsers } = await loadHttpware();
      return parsers[c.kind]({ ...options, schema: smallUserSchema() });
    }
    case 'httpware-zod-handler': {
      const { parsers } = await loadHttpware();
      const parse = parsers[c.kind](options);
      const schema = smallUserSchema();
      return (req, res, next) =>
        parse(req, res, (err) => {
          if (err) return next(err);
          try {
            req.body = schema.parse(req.body);
          } catch (invalid) {
            return next(invalid);
          }
          next();
        });
    }
    default:
      throw new Error(`unknown parser variant ${impl}`);
  }
}

export function parserRequest(c, host = 'bench.local') {
  const head = Buffer.from(
    'POST /submit HTTP/1.1\r\n' +
      `Host: ${host}\r\n` +
      `Content-Type: ${c.type}\r\n` +
      `Content-Length: ${c.body.length}\r\n` +
      (c.encoding ? `Content-Encoding: ${c.encoding}\r\n` : '') +
      'Connection: keep-alive\r\n\r\n',
  );
  // A large body arrives in socket-sized reads (64 KiB), a small one with its headers.
  const PIECE = 64 * 1024;
  if (c.body.length <= PIECE) return [Buffer.concat([head, c.body])];
  const pieces = [head];
  for (let at = 0; at < c.body.length; at += PIECE) pieces.push(c.body.subarray(at, at + PIECE));
  return pieces;
}

export function middlewareFor(spec) {
  return spec.group === 'logger' ? loggerMiddleware(spec) : parserMiddleware(spec);
}
