#!/usr/bin/env node
// Instructions per request under valgrind's callgrind: repeatable whatever the machine's load,
// so an A/B of a change can be read off one run. Each variant runs twice in fresh processes,
// with `--requests` and twice as many requests after the same warm-up; the difference of the
// two totals, divided by `--requests`, is the steady-state cost of one request (start-up,
// warm-up and JIT compilation cancel out).
//   node instructions.mjs [--requests=2000] [--warmup=3000] variant ...
// A variant is impl@logger:<format> (impl: floor, morgan, pino-http, httpware) or
// impl@parsers:<case> (impl: floor, floor-samelib, qs-alone (urlencoded), body-parser, httpware,
// httpware-zod and httpware-zod-handler (json-100b), baseline with
// HTTPWARE_BENCH_BASELINE=/path/entries/index.mjs).
import { spawnSync } from 'node:child_process';
import { numberOption, positional, variantSpec } from './lib/cli.mjs';
import { snapshotHttpware } from './lib/httpware.mjs';

const requests = numberOption('requests', 2000);
const warmup = numberOption('warmup', 3000);
const variants = positional;

function instructions(spec, measured) {
  const { stderr: out } = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      // Background compiler and GC threads and time-driven GC heuristics made two runs of the
      // same variant differ by more than a logger costs: one thread, GC on a fixed schedule.
      '--single-threaded',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      new URL('lib/count-run.mjs', import.meta.url).pathname,
      JSON.stringify(spec),
      String(warmup),
      String(measured),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 },
  );
  const m = /Collected : (\d+)/.exec(out);
  if (!m) throw new Error(`no instruction count for ${JSON.stringify(spec)}`);
  return Number(m[1]);
}

const build = await snapshotHttpware();
console.log(
  `httpware build ${build}; ${requests} requests after ${warmup}; instructions per request`,
);
for (const name of variants) {
  const spec = variantSpec(name);
  const once = instructions(spec, requests);
  const twice = instructions(spec, 2 * requests);
  console.log(
    `${name.padEnd(40)} ${Math.round((twice - once) / requests)
      .toLocaleString('en-US')
      .padStart(12)}`,
  );
}
