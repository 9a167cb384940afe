#!/usr/bin/env node
// Bytes allocated per request, from V8's own GC trace: the young generation is fixed at
// 16 MB, and every collection reports what was allocated since the one before; the sum over
// the measured requests, divided by their number, is the allocation of one request (the
// remainder since the last collection, under 16 MB, is left out: use enough requests).
// Like instruction counts it does not depend on the machine's load, and it shows what
// instructions barely do: collecting garbage costs wall-clock time (more with more requests
// in flight), allocating it costs few instructions.
//   node allocations.mjs [--requests=60000] [--warmup=20000] [--connections=8] variant ...
// Variants as in instructions.mjs (impl@logger:<format>, impl@parsers:<case>).
import { spawnSync } from 'node:child_process';
import { numberOption, positional, variantSpec } from './lib/cli.mjs';
import { snapshotHttpware } from './lib/httpware.mjs';

const requests = numberOption('requests', 60000);
const warmup = numberOption('warmup', 20000);
const connections = numberOption('connections', 8);
const variants = positional;

function allocated(spec) {
  const { stdout } = spawnSync(
    process.execPath,
    [
      '--trace-gc-nvp',
      '--min-semi-space-size=16',
      '--max-semi-space-size=16',
      new URL('lib/count-run.mjs', import.meta.url).pathname,
      JSON.stringify(spec),
      String(warmup),
      String(requests),
      String(connections),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const lines = stdout.split('\n');
  const from = lines.indexOf('measure');
  const to = lines.indexOf('measured');
  if (from === -1 || to === -1) throw new Error(`no measured requests for ${JSON.stringify(spec)}`);
  let bytes = 0;
  let collections = 0;
  for (const line of lines.slice(from, to)) {
    const m = /\ballocated=(\d+)/.exec(line);
    if (m) {
      bytes += Number(m[1]);
      collections++;
    }
  }
  return { perRequest: bytes / requests, collections };
}

const build = await snapshotHttpware();
console.log(
  `httpware build ${build}; ${requests} requests after ${warmup}, ${connections} connections; bytes allocated per request`,
);
for (const name of variants) {
  const spec = variantSpec(name);
  const { perRequest, collections } = allocated(spec);
  console.log(
    `${name.padEnd(40)} ${Math.round(perRequest).toLocaleString('en-US').padStart(8)}  (${collections} collections)`,
  );
}
