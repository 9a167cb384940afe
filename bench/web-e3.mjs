#!/usr/bin/env node
// Judge suite E's E3 in one process: a fetch handler answering `new Response('ok')`, called
// with a fresh GET Request (suite A's path and headers), its body read to its end; the handler
// alone, with `fetchLogger(format)` of this build and of another (--against), and a Hono app
// without and with hono/logger. Variants run in rounds of `--batch` requests each, in an order
// that rotates every round, on the CPU clock, for `--seconds`; an overhead is computed per round
// (fetchLogger's over the handler alone, hono/logger's over the Hono app), so load that comes
// and goes falls on every variant of a round alike. Prints the medians, their quartiles and
// the ratio of the medians to hono/logger's (issue 43's target: 1.0 for json).
//   node bench/web-e3.mjs --against=/tmp/before/entries/index.mjs [--format=json] [--seconds=90]
import { Hono } from 'hono';
import { logger as honoLogger } from 'hono/logger';
import { E3_HEADERS as HEADERS, e3Handler as inner, E3_URL as URL_ } from './lib/e3-request.mjs';
import { loadHttpware, snapshotHttpware } from './lib/httpware.mjs';

const option = (name, fallback) => {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given === undefined ? fallback : given.slice(name.length + 3);
};
const FORMAT = option('format', 'json');
const SECONDS = Number(option('seconds', 90));
const BATCH = Number(option('batch', 1000));
const AGAINST = option('against', undefined);

if (!process.env.HTTPWARE_BENCH_ENTRY) await snapshotHttpware();
const current = await loadHttpware();
const other =
  AGAINST === undefined
    ? undefined
    : await import(new URL(AGAINST, `file://${process.cwd()}/`).href);

const sink = { write: () => true };
const hono = (middleware) => {
  const app = new Hono();
  if (middleware) app.use(middleware);
  app.get('*', inner);
  return (request) => app.fetch(request);
};
const variants = {
  floor: inner,
  httpware: current.fetchLogger(FORMAT, { stream: sink })(inner),
  ...(other && { against: other.fetchLogger(FORMAT, { stream: sink })(inner) }),
  hono: hono(),
  'hono/logger': hono(honoLogger(() => {})),
};

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
/** µs of CPU per request over `n` requests. */
async function batch(handler, n) {
  const started = cpu();
  for (let i = 0; i < n; i++) {
    const response = await handler(new Request(URL_, { headers: HEADERS }));
    await response.text();
  }
  return (cpu() - started) / n;
}

for (const handler of Object.values(variants)) await batch(handler, 20 * BATCH);
const names = Object.keys(variants);
const rounds = [];
const until = Date.now() + SECONDS * 1000;
for (let round = 0; Date.now() < until; round++) {
  const times = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    times[name] = await batch(variants[name], BATCH);
  }
  rounds.push(times);
}

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
const describe = (values) =>
  `${quantile(values, 0.5).toFixed(2)} [${quantile(values, 0.25).toFixed(2)}-${quantile(values, 0.75).toFixed(2)}]`;
const overheads = {
  httpware: rounds.map((r) => r.httpware - r.floor),
  ...(other && { against: rounds.map((r) => r.against - r.floor) }),
  'hono/logger': rounds.map((r) => r['hono/logger'] - r.hono),
};
const honoMedian = quantile(overheads['hono/logger'], 0.5);
console.log(
  `E3 in process, fetchLogger('${FORMAT}'); ${rounds.length} rounds of ${BATCH} requests, CPU clock`,
);
for (const [name, values] of Object.entries(overheads)) {
  const ratio = quantile(values, 0.5) / honoMedian;
  console.log(
    `overhead ${name.padEnd(12)} ${describe(values)} µs  ${ratio.toFixed(2)}x hono/logger's`,
  );
}
