#!/usr/bin/env node
// What CI runs after `npm ci` (.ci/run), and what anyone can run the same way:
//
//   node scripts/ci.mjs                    every line below, in order
//   node scripts/ci.mjs node@24 deno@2     only those
//
// - on each Node line: the whole `npm test` (lockfile, build, types, lint, every test), with
//   that line's `node` first on PATH, so the tests and every child process they start run on it;
// - on Bun and Deno: the smoke suite (test/runtimes/smoke.ts) against the build, the Web
//   door's suite on the runtime's own server (test/runtimes/web.ts), then the runtime's Web
//   examples (test/runtimes/examples.ts), then `destination` on the runtime (test/runtimes/
//   destination.ts: lines written however the process ends);
// - `next`: the Web door's suite against a Next.js app (test/next/app.next.ts: `next build`,
//   then `next start`), on the Node that runs this script. It takes minutes, so `npm test`
//   leaves it to CI.
// Runtimes come from the npm registry through scripts/runtimes.mjs and are cached between runs.
// Every job runs even when one fails; the run fails when any did, after a summary of all. The
// summary repeats the lines that said what failed (the test runner's `✖` lines, a failing step),
// so the tail of a long log is enough to know why.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRuntime, runtime } from './runtimes.mjs';

const root = new URL('..', import.meta.url).pathname;

/**
 * The Node lines CI runs: every even (long-term support) line from the lowest that `engines`
 * admits to the newest. test/scripts/ci.test.ts keeps `engines` at the first of them.
 */
export const NODE_LINES = ['20', '22', '24', '26'];
export const JOBS = [...NODE_LINES.map((line) => `node@${line}`), 'bun@1', 'deno@2', 'next'];

/** The suites a Bun or Deno job runs, one after the other. */
const RUNTIME_SUITES = [
  'test/runtimes/smoke.ts',
  'test/runtimes/web.ts',
  'test/runtimes/examples.ts',
  'test/runtimes/destination.ts',
];

/** The commands of a job, given the runtime's executable. */
function commandsOf(kind, executable) {
  switch (kind) {
    case 'node':
      return [['npm', ['test']]];
    case 'next':
      return [[executable, ['scripts/run-tests.mjs', 'test/next/app.next.ts']]];
    case 'bun':
      return RUNTIME_SUITES.map((suite) => [executable, [join(root, suite)]]);
    default:
      // Deno resolves `./x.js` to `./x.ts` only with sloppy imports; the suite's helpers are
      // written for Node's TypeScript loaders, which all do.
      return RUNTIME_SUITES.map((suite) => [
        executable,
        ['run', '--allow-all', '--sloppy-imports', '--quiet', join(root, suite)],
      ]);
  }
}

/**
 * The smoke, Web and Next suites load the build (entries/ -> dist/). Installing does not build (the build is
 * package.json's `prepack`), so a Bun or Deno job builds once, and holds when run alone.
 */
let built = false;
function buildOnce() {
  if (built) return;
  console.log('\n=== npm run build, for the smoke suite');
  if (spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) {
    throw new Error('npm run build failed');
  }
  built = true;
}

/** A failing test, a failed file or warning summary (`✖ …`), or npm's own error lines. */
const FAILURE_LINE = /^\s*✖ |^npm (?:ERR!|error) /;
const MAX_FAILURE_LINES = 40;

/**
 * Runs a command with its output passed through as it comes, and resolves to its exit status
 * and the lines of it that said what failed.
 */
function run(command, args, env) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] });
    const failures = [];
    const watch = (from, to) => {
      let tail = '';
      from.on('data', (chunk) => {
        to.write(chunk);
        const lines = (tail + chunk.toString('utf8')).split('\n');
        tail = lines.pop();
        for (const line of lines) if (FAILURE_LINE.test(line)) failures.push(line.trim());
      });
    };
    watch(child.stdout, process.stdout);
    watch(child.stderr, process.stderr);
    child.on('error', (err) => resolveRun({ status: 1, failures: [err.message] }));
    child.on('close', (status) => resolveRun({ status, failures }));
  });
}

async function runJob(job) {
  const [kind, major] = job === 'next' ? ['next'] : parseRuntime(job);
  const started = Date.now();
  if (kind !== 'node') buildOnce();
  if (kind !== 'next') console.log(`\n=== ${job}: fetching the runtime`);
  const executable = kind === 'next' ? process.execPath : runtime(kind, major);
  const env = {
    ...process.env,
    // Node first on PATH: `npm test`'s scripts, the test runner and every `node` they spawn.
    PATH: `${dirname(executable)}:${process.env.PATH}`,
    npm_config_update_notifier: 'false',
  };
  let ok = true;
  const failures = [];
  for (const [command, args] of commandsOf(kind, executable)) {
    const step = command === 'npm' ? 'npm test' : args.join(' ');
    console.log(`=== ${job}: ${step} (${executable})`);
    const result = await run(command, args, env);
    if (result.status !== 0) failures.push(`${step}: exit ${result.status}`, ...result.failures);
    ok &&= result.status === 0;
  }
  return { job, ok, failures, seconds: Math.round((Date.now() - started) / 1000) };
}

async function main() {
  const asked = process.argv.slice(2);
  const jobs = asked.length > 0 ? asked : JOBS;
  const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  console.log(`CI: ${jobs.join(', ')} (engines.node ${engines.node})`);
  const results = [];
  for (const job of jobs) {
    try {
      results.push(await runJob(job));
    } catch (err) {
      console.error(`=== ${job}: ${err.message}`);
      results.push({ job, ok: false, failures: [err.message], seconds: 0 });
    }
  }
  console.log('\n=== summary');
  for (const { job, ok, failures, seconds } of results) {
    console.log(`${ok ? 'pass' : 'FAIL'}  ${job.padEnd(8)} ${seconds} s`);
    for (const line of failures.slice(0, MAX_FAILURE_LINES)) console.log(`      ${line}`);
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(`ci: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
