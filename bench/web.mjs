#!/usr/bin/env node
// The Web-standard door, in process, side by side in one run, on whichever runtime runs it:
//
//   node bench/web.mjs   (Node)   bun bench/web.mjs   (Bun)   deno run -A bench/web.mjs   (Deno)
//   node bench/web.mjs --rounds=5 --batch-ms=200 --only=parsers|logger --clock=wall|cpu
//   node bench/web.mjs --against=/tmp/before/entries/index.mjs --cases=json-100b
//
// - parsers: judge suite E's cases (E1/E2): `json.read(request, { limit: '2mb' })` and a
//   `json.reader({ limit: '2mb' })` against `await request.json()` (`urlencoded` against
//   `URLSearchParams` for a 20-field form), each on a fresh Web Request built the same way
//   (the Request's own cost is in both), 100 B, 10 KB and 1 MB JSON shaped as an API's (nested
//   objects, numbers, escaped quotes, some non-ASCII text, as suite E's). The ratio is httpware's
//   time over the runtime's; httpware also checks the type, the limit (on the announced length
//   and every chunk) and prototype keys, which request.json() does not.
// - logger: a fetch handler answering a small text body, called in process and its body read
//   to the end (a line that waits for the delivery, json's, is written then): no logger, hono's
//   `logger` middleware on a Hono app (against the same app without it), and httpware's
//   `fetchLogger` with `combined` and `json`, wrapping the handler and as Hono middleware, and
//   Hono with a no-op middleware (Hono skips its chain for a lone handler: the chain's cost).
//   Every logger writes to a discarding sink; the figure is overhead in µs per request, and
//   httpware's overhead as a ratio of hono/logger's.
// Variants run interleaved, in rounds of batches of about `--batch-ms` each; a figure is the
// median of the round medians. Tables go to stdout; the last line is a JSON summary.
// --against=ENTRY loads a second build of httpware (another commit's entries/index.mjs, its
// dist/ beside it) and times its `read` and `fetchLogger` in the same rounds, interleaved with
// the current build's: a change is measured side by side in one process, where two runs on a
// shared machine differ by more than the change. --cases limits the parser cases.
// --clock=cpu times a batch by the process's CPU time (process.cpuUsage: user + system, GC
// threads included) instead of the wall clock: on a machine shared with other work, the time
// the process spends descheduled is not in it, so runs under load agree with each other.
import { Hono } from 'hono';
import { logger as honoLogger } from 'hono/logger';
import { loadHttpware, snapshotHttpware } from './lib/httpware.mjs';
import { median } from './lib/stats.mjs';

const option = (name, fallback) => {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given === undefined ? fallback : given.slice(name.length + 3);
};
const ROUNDS = Number(option('rounds', 7));
const BATCH_MS = Number(option('batch-ms', 150));
const ONLY = option('only', 'parsers,logger').split(',');
const CLOCK = option('clock', 'wall');
const AGAINST = option('against', undefined);
if (CLOCK !== 'wall' && CLOCK !== 'cpu') throw new Error('--clock must be wall or cpu');
/** Microseconds on the chosen clock. */
const microseconds =
  CLOCK === 'cpu'
    ? () => {
        const { user, system } = process.cpuUsage();
        return user + system;
      }
    : () => performance.now() * 1000;
const runtime =
  typeof globalThis.Bun !== 'undefined'
    ? `bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `deno ${globalThis.Deno.version.deno}`
      : `node ${process.version}`;

// The current build, copied as the other groups copy it (lib/httpware.mjs).
if (!process.env.HTTPWARE_BENCH_ENTRY) await snapshotHttpware();
const { parsers, fetchLogger } = await loadHttpware();
/** The build compared with (--against), or undefined. */
const other =
  AGAINST === undefined
    ? undefined
    : await import(new URL(AGAINST, `file://${process.cwd()}/`).href);

/** A sink for lines: the cost measured is the logger's, not a file's. */
const sink = {
  lines: 0,
  write() {
    this.lines++;
    return true;
  },
};
const honoSink = { lines: 0 };
const honoPrint = () => {
  honoSink.lines++;
};

/** Per-op time of `op` over a batch of about BATCH_MS, in µs. */
async function batch(op, size) {
  const started = microseconds();
  for (let i = 0; i < size; i++) await op();
  return (microseconds() - started) / size;
}

/** Median µs per op of each variant, interleaved over ROUNDS rounds. */
async function measure(variants) {
  const sizes = {};
  for (const [name, op] of Object.entries(variants)) {
    // Warm-up: 200 ops, or one second of them for a large body.
    const until = performance.now() + 1000;
    for (let i = 0; i < 200 && (i < 5 || performance.now() < until); i++) await op();
    const probe = await batch(op, 20);
    sizes[name] = Math.max(50, Math.round((BATCH_MS * 1000) / probe));
  }
  const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, op] of Object.entries(variants))
      samples[name].push(await batch(op, sizes[name]));
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values)]),
  );
}

const fmt = (n) => n.toFixed(2).padStart(9);

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'kilo', 'lima', 'tango', 'über', 'café'];

/**
 * A body of about `bytes` bytes: the JSON cases' array of records (a few fields of each kind,
 * a nested object, a string with escapes, some non-ASCII words, so the text decodes as two-byte
 * characters as most real bodies' do), or a browser-like form of 20 flat fields.
 */
function parserBody(name) {
  if (name === 'urlencoded-20') {
    const form = new URLSearchParams();
    for (let i = 0; i < 20; i++) form.append(`field${i}`, `value ${i} & more`);
    return { type: 'application/x-www-form-urlencoded', text: form.toString() };
  }
  const bytes = { 'json-100b': 100, 'json-10kb': 10 * 1024, 'json-1mb': 1024 * 1024 }[name];
  if (bytes === 100) {
    return {
      type: 'application/json',
      text: '{"id":12345,"name":"Widget","price":19.99,"tags":["a","b"],"active":true,"ref":"x-1"}',
    };
  }
  const word = (i) => WORDS[(i * 7) % WORDS.length];
  const items = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const item = {
      id: i,
      sku: `SKU-${100000 + ((i * 7919) % 900000)}`,
      name: `${word(i)} ${word(i + 3)}`,
      price: ((i * 37) % 10000) / 100,
      active: i % 3 !== 0,
      tags: [word(i + 1), word(i + 2)],
      dims: { w: i % 100, h: (i * 3) % 100 },
      note: `Lorem "ipsum" dolor\n ${word(i + 5)}`,
    };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return { type: 'application/json', text: JSON.stringify({ items }) };
}

const PARSER_CASES = option('cases', 'json-100b,json-10kb,json-1mb,urlencoded-20').split(',');

/**
 * Each case as judge suite E times it: a fresh `new Request(url, { method, body, headers })`
 * per op, its body a Uint8Array and its headers a client's, Content-Length included; the
 * runtime's own reading (`request.json()`, or `URLSearchParams` over `request.text()` for the
 * form) against `read` with its options written inline (`{ limit: '2mb' }`, as suite E's
 * candidate) and against a `reader` made once.
 */
async function parserCases() {
  const results = {};
  for (const name of PARSER_CASES) {
    const { type, text } = parserBody(name);
    const body = new TextEncoder().encode(text);
    const headers = {
      host: '127.0.0.1',
      'user-agent': 'bench/1.0',
      accept: '*/*',
      'content-type': type,
      'content-length': String(body.length),
    };
    const url = 'http://127.0.0.1/p';
    const make = () => new Request(url, { method: 'POST', body, headers });
    const form = type !== 'application/json';
    const parser = form ? parsers.urlencoded : parsers.json;
    const reader = parser.reader({ limit: '2mb' });
    const otherParser =
      other === undefined ? undefined : other.parsers[form ? 'urlencoded' : 'json'];
    const times = await measure({
      runtime: form
        ? async () => Object.fromEntries(new URLSearchParams(await make().text()))
        : () => make().json(),
      'read(request, options)': () => parser.read(make(), { limit: '2mb' }),
      'reader(request)': () => reader(make()),
      ...(otherParser && { against: () => otherParser.read(make(), { limit: '2mb' }) }),
    });
    const ratio = times['read(request, options)'] / times.runtime;
    const readerRatio = times['reader(request)'] / times.runtime;
    const againstRatio = otherParser && times.against / times.runtime;
    results[name] = { ...times, ratio, readerRatio, ...(otherParser && { againstRatio }) };
    console.log(
      `parsers ${name.padEnd(13)} runtime ${fmt(times.runtime)} µs  read ${fmt(times['read(request, options)'])} µs (${ratio.toFixed(3)}x)  reader ${fmt(times['reader(request)'])} µs (${readerRatio.toFixed(3)}x)${otherParser ? `  against: read ${fmt(times.against)} µs (${againstRatio.toFixed(3)}x)` : ''}`,
    );
  }
  return results;
}

async function loggerCases() {
  const handler = () => new Response('hello world', { headers: { 'content-type': 'text/plain' } });
  const app = (middleware) => {
    const hono = new Hono();
    if (middleware) hono.use(middleware);
    hono.get('/p', () => handler());
    return hono.fetch;
  };
  // The headers a browser sends with a navigation: what a logger that reads headers pays for
  // depends on how many there are (hono/logger reads none).
  const headers = {
    host: '127.0.0.1',
    'user-agent':
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
    'accept-encoding': 'gzip, deflate, br, zstd',
    referer: 'http://127.0.0.1/',
    cookie: 'session=4f1c2a; theme=dark',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'same-origin',
    'upgrade-insecure-requests': '1',
  };
  const request = () => new Request('http://127.0.0.1/p?q=1', { headers });
  const call = (fetch) => async () => {
    const response = await fetch(request());
    await response.text();
  };
  const times = await measure({
    none: call(handler),
    'httpware combined': call(fetchLogger('combined', { stream: sink })(handler)),
    'httpware json': call(fetchLogger('json', { stream: sink })(handler)),
    hono: call(app()),
    'hono + hono/logger': call(app(honoLogger(honoPrint))),
    // Hono runs a lone handler without its middleware chain: this is the chain's own cost.
    'hono + no-op middleware': call(app((_c, next) => next())),
    'hono + httpware combined': call(app(fetchLogger('combined', { stream: sink }).middleware)),
    ...(other && {
      'against combined': call(other.fetchLogger('combined', { stream: sink })(handler)),
      'against json': call(other.fetchLogger('json', { stream: sink })(handler)),
    }),
  });
  const overhead = {
    'httpware combined': times['httpware combined'] - times.none,
    'httpware json': times['httpware json'] - times.none,
    'hono/logger': times['hono + hono/logger'] - times.hono,
    'httpware combined (hono middleware)': times['hono + httpware combined'] - times.hono,
    ...(other && {
      'against combined': times['against combined'] - times.none,
      'against json': times['against json'] - times.none,
    }),
  };
  // The same two middleware over Hono's chain alone: what each adds inside the chain.
  const inChain = {
    'hono/logger': times['hono + hono/logger'] - times['hono + no-op middleware'],
    'httpware combined': times['hono + httpware combined'] - times['hono + no-op middleware'],
  };
  for (const [name, us] of Object.entries(times))
    console.log(`logger ${name.padEnd(26)} ${fmt(us)} µs/request`);
  for (const [name, us] of Object.entries(overhead)) {
    const ratio = us / overhead['hono/logger'];
    console.log(
      `overhead ${name.padEnd(36)} ${fmt(us)} µs  ${ratio.toFixed(2)}× hono/logger's (target < 1)`,
    );
  }
  for (const [name, us] of Object.entries(inChain)) {
    console.log(`in Hono's chain ${name.padEnd(29)} ${fmt(us)} µs over a no-op middleware`);
  }
  if (sink.lines === 0 || honoSink.lines === 0) throw new Error('a logger wrote no line');
  return { times, overhead, inChain };
}

console.log(
  `Web-standard door, in process, on ${runtime}; ${ROUNDS} rounds of ${BATCH_MS} ms batches, ${CLOCK} clock`,
);
const summary = { runtime, clock: CLOCK };
if (ONLY.includes('parsers')) summary.parsers = await parserCases();
if (ONLY.includes('logger')) summary.logger = await loggerCases();
console.log(JSON.stringify(summary));
