#!/usr/bin/env node
// Two of test/destination's situations, run against httpware's destination and pino's, for
// reference (issue 42; figures in docs/benchmarks.md): node destination-reference.mjs
//   sigterm: a server under load gets SIGTERM; answered requests whose line is not in the file.
//   stall:   the reader of its stdout pipe stops for 4 s under load (8 KB URLs); requests
//            answered meanwhile, the slowest answer to a probe, memory grown.
// Needs the root's build (npm run build) and bench's dependencies (npm ci in bench/).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const IMPLS = ['httpware', 'pino-sync', 'pino-async'];
const SERVER = new URL('./destination/server.cjs', import.meta.url).pathname;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function get(port, path, agent = false) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

function start(impl, target, stdout = 'ignore') {
  const child = spawn(process.execPath, ['--expose-gc', SERVER, impl, target], {
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /PORT (\d+)/.exec(stderr);
      if (match) resolve({ child, port: Number(match[1]) });
    });
  });
}

/** Requests from 16 keep-alive clients until `stop.now` or the server is gone. */
async function load(port, answered, stop, pad = 0) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let next = 0;
  const client = async () => {
    while (!stop.now) {
      const id = next++;
      try {
        await get(port, `/n/${id}${pad ? `/${'x'.repeat(pad)}` : ''}`, agent);
      } catch {
        return;
      }
      answered.push(id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
  agent.destroy();
}

async function sigterm(impl) {
  const file = join(tmpdir(), `destination-reference-${impl}.log`);
  rmSync(file, { force: true });
  const { child, port } = await start(impl, file);
  const answered = [];
  const running = load(port, answered, { now: false });
  while (answered.length < 1000) await sleep(5);
  child.kill('SIGTERM');
  await running;
  await new Promise((resolve) => child.on('exit', resolve));
  const logged = new Set([...readFileSync(file, 'utf8').matchAll(/\/n\/(\d+)/g)].map((m) => +m[1]));
  rmSync(file, { force: true });
  return { answered: answered.length, missing: answered.filter((id) => !logged.has(id)).length };
}

async function stall(impl) {
  const { child, port } = await start(impl, '1', 'pipe');
  child.stdout.on('data', () => {});
  const answered = [];
  const stop = { now: false };
  const running = load(port, answered, stop, 8000);
  while (answered.length < 100) await sleep(5);
  const before = JSON.parse(await get(port, '/stats')).memory;
  child.stdout.pause();
  const from = answered.length;
  const started = Date.now();
  let grown = 0;
  let slowest = 0;
  while (Date.now() - started < 4000) {
    const asked = Date.now();
    const timeout = sleep(3000).then(() => null);
    const stats = await Promise.race([get(port, '/stats').then(JSON.parse), timeout]);
    slowest = Math.max(slowest, Date.now() - asked);
    if (stats) grown = Math.max(grown, stats.memory - before);
    await sleep(200);
  }
  const during = answered.length - from;
  stop.now = true;
  child.kill('SIGKILL');
  await running;
  return {
    answeredDuringStall: during,
    slowestProbeMs: slowest,
    memoryGrownMiB: +(grown / 2 ** 20).toFixed(1),
  };
}

for (const impl of IMPLS) {
  console.log(JSON.stringify({ impl, sigterm: await sigterm(impl), stall: await stall(impl) }));
}
