#!/usr/bin/env node
// httpware benchmarks: node run.mjs [--quick] [--only=logger-inproc,parsers-loopback,...]
//   [--rounds=N] [--cycles=N] [--batch-ms=N] [--slices=N] [--seconds=N] [--metric=wall|cpu]
//   [--cpu-prof[=dir]] [--build] [--no-httpware] [--docs | --no-docs] [--docs-from=file]
//   [--baseline=/path/entries/index.mjs]
// --build: build src/ with the root's tsup config into bench/.snapshot/ instead of copying dist/.
// Tables on stdout, progress on stderr, and a one-line JSON summary as the last line of stdout.
// A full run (every group, httpware measured, not --quick) also writes its figures into
// docs/benchmarks.svg, docs/benchmarks.md and README.md (--docs forces it, --no-docs skips it);
// --docs-from=file writes them from a saved run's output (its last line, the JSON summary).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeDocs } from './lib/docs.mjs';
import { httpwareBuilt, snapshotHttpware } from './lib/httpware.mjs';
import { targetLine } from './lib/report.mjs';

const repository = new URL('../', import.meta.url);
const docsFrom = process.argv.find((a) => a.startsWith('--docs-from='))?.slice(12);
if (docsFrom) {
  const lines = readFileSync(docsFrom, 'utf8').trim().split('\n');
  writeDocs(JSON.parse(lines[lines.length - 1] ?? ''), repository);
  console.log('wrote docs/benchmarks.svg, docs/benchmarks.md and the README figures');
  process.exit(0);
}

if (!existsSync(new URL('node_modules/autocannon/', import.meta.url))) {
  console.error('bench dependencies missing: run `npm ci` in bench/ (or `npm --prefix bench ci`)');
  process.exit(2);
}
// Imported once the check has passed: the groups load morgan, body-parser, autocannon.
const { GROUPS } = await import('./lib/groups.mjs');

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? true];
  }),
);
const quick = Boolean(args.quick);
const num = (name, fallback) => (args[name] === undefined ? fallback : Number(args[name]));

// Quick: a few minutes in all (callgrind counts 1,000 requests). Full: about 16 minutes on a
// 2-core machine (more when busy).
const options = {
  quick,
  httpware: !args['no-httpware'] && (httpwareBuilt() || Boolean(args.build)),
  // --baseline=/path/entries/index.mjs: another build of httpware measured beside this one
  // (parser groups), so the cost of a change is a ratio taken within each cycle.
  baseline: typeof args.baseline === 'string',
  inproc: {
    rounds: num('rounds', quick ? 1 : 3),
    cycles: num('cycles', quick ? 3 : 8),
    batchMs: num('batch-ms', quick ? 60 : 200),
    // Each batch cut into this many slices that take turns across the variants of a cycle.
    slices: num('slices', quick ? 3 : 10),
    // Warm-up: at least this much CPU time per process, then until it settles, at most
    // warmupMaxMs of wall-clock time.
    warmupMs: quick ? 200 : 1000,
    warmupMaxMs: quick ? 700 : 3000,
    cpuProf:
      args['cpu-prof'] === true
        ? fileURLToPath(new URL('profiles/', import.meta.url))
        : args['cpu-prof'],
    // wall: elapsed time per request; cpu: the worker's CPU time per request (user + system,
    // zlib's thread pool included), steadier when other processes compete for the cores.
    metric: args.metric === 'cpu' ? 'cpu' : 'wall',
  },
  loopback: {
    rounds: num('rounds', quick ? 1 : 2),
    cycles: num('cycles', quick ? 2 : 4),
    seconds: num('seconds', quick ? 0.4 : 2.5),
    warmupSeconds: quick ? 0.3 : 1.5,
    // --rate=N: autocannon sends N requests a second instead of as many as it can, so every
    // variant serves the same load (a server that is not saturated spends more CPU per request
    // when fewer arrive at each wake-up; at full speed a slower variant is also a less
    // batched one).
    rate: num('rate', 0),
  },
};

if (options.baseline) process.env.HTTPWARE_BENCH_BASELINE = args.baseline;

const only = args.only ? String(args.only).split(',') : Object.keys(GROUPS);
for (const name of only) {
  if (!GROUPS[name]) {
    console.error(`unknown group ${name}; groups: ${Object.keys(GROUPS).join(', ')}`);
    process.exit(2);
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line) => process.stderr.write(`${line}\n`);
const started = Date.now();
const machine = {
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model.trim(),
  memoryGB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
console.log(
  `httpware bench${quick ? ' --quick' : ''}: ${machine.cpus} x ${machine.cpu}, node ${machine.node}`,
);
const build = options.httpware ? await snapshotHttpware({ fromSource: Boolean(args.build) }) : null;
const commit = (() => {
  try {
    const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? '+dirty' : ''}`;
  } catch {
    return null;
  }
})();
if (process.env.HTTPWARE_BENCH_ENTRY) {
  console.log(`httpware build: ${process.env.HTTPWARE_BENCH_ENTRY} (HTTPWARE_BENCH_ENTRY)`);
} else if (build) console.log(`httpware build: dist/index.cjs sha256 ${build}, git ${commit}`);
if (!options.httpware) {
  console.log(
    'httpware is not built (npm run build at the root): measuring floor and incumbents only',
  );
}

const results = [];
for (const name of only) {
  log(`${name}...`);
  const t0 = Date.now();
  const result = await GROUPS[name](options, log);
  log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  results.push(result);
  console.log(`\n${result.title}\n\n${result.text}\n`);
  for (const t of result.targets) console.log(targetLine(t));
  for (const p of result.problems) console.log(`  problem: ${p}`);
}

const targets = results.flatMap((r) => r.targets);
const failed = targets.filter((t) => t.holds === false);
console.log(
  `\n${targets.length - failed.length - targets.filter((t) => t.holds === null).length}/${targets.length} targets hold` +
    ` (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
const round = (v) => (typeof v === 'number' ? Number(v.toPrecision(4)) : v);
const summaryLine = JSON.stringify(
  {
    bench: 'httpware',
    quick,
    date: new Date().toISOString(),
    machine,
    build,
    commit,
    targets: Object.fromEntries(
      targets.map((t) => [t.id, { value: t.value, holds: t.holds, limit: t.limitText }]),
    ),
    groups: Object.fromEntries(
      results.map((r) => [r.key, { title: r.title, ...r.summary, problems: r.problems }]),
    ),
  },
  (_k, v) => round(v),
);
console.log(summaryLine);
const fullRun = !quick && options.httpware && only.length === Object.keys(GROUPS).length;
if (args.docs || (fullRun && !args['no-docs'])) {
  writeDocs(JSON.parse(summaryLine), repository);
  log('wrote docs/benchmarks.svg, docs/benchmarks.md and the README figures');
} else log('docs not updated (not a full run; --docs writes them anyway)');
