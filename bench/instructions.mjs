#!/usr/bin/env node
// Instructions per request under valgrind's callgrind (lib/instructions.mjs): repeatable
// whatever the machine's load, so an A/B of a change can be read off one run.
//   node instructions.mjs [--requests=10000] [--warmup=3000] [--response=chunked] variant ...
// (the defaults of the logger-instructions group, whose counts these then match)
// A variant is impl@logger:<format> (impl: floor, minimal, morgan, pino-http, httpware,
// httpware-trust-proxy, httpware-metrics: the `metrics` option into the SDK, httpware-metrics-noop:
// into a meter that keeps nothing, morgan-prom-bundle: morgan with express-prom-bundle) or
// impl@parsers:<case> (impl: floor, floor-samelib, qs-alone (urlencoded), body-parser, httpware,
// httpware-zod and httpware-zod-handler (json-100b), baseline with
// HTTPWARE_BENCH_BASELINE=/path/entries/index.mjs), or impl@web:<format>, the Web door's
// logger on judge suite E's E3 request (impl: floor, httpware, baseline, hono, hono-logger;
// lib/count-web.mjs).
// --response=chunked: the handler answers with three `res.write` then `res.end()` (chunked,
// no length announced) instead of `res.end('ok')` (a Content-Length).
// --tcp: the requests come over real loopback TCP from a client in another process (one
// keep-alive connection), not over in-memory sockets: node:http's socket work is counted too.
import { flag, numberOption, positional, stringOption, variantSpec } from './lib/cli.mjs';
import { snapshotHttpware } from './lib/httpware.mjs';
import { instructionsPerRequest } from './lib/instructions.mjs';

const requests = numberOption('requests', 10_000);
const warmup = numberOption('warmup', 3000);
const variants = positional;
const response = stringOption('response');
const tcp = flag('tcp');

const build = await snapshotHttpware();
console.log(
  `httpware build ${build}; ${requests} requests after ${warmup}; instructions per request`,
);
for (const name of variants) {
  const perRequest = await instructionsPerRequest(
    { ...variantSpec(name), response, tcp },
    { requests, warmup },
  );
  console.log(`${name.padEnd(40)} ${Math.round(perRequest).toLocaleString('en-US').padStart(12)}`);
}
