#!/usr/bin/env node
// CPU profiles of httpware's middleware on the in-process benchmark: one worker per variant,
// warmed up, then one timed batch profiled through node:inspector (the same sampler as
// `node --cpu-prof`, without start-up and warm-up); prints where the time goes, in ns per
// request. The .cpuprofile files stay in bench/profiles/ for Chrome DevTools or speedscope.
//   node profile.mjs [--seconds=5] [--top=12] [--build] [variant ...]
// A variant is logger:<format> or parsers:<case>, with an optional impl prefix
// (morgan@logger:combined, body-parser@parsers:json-10kb); the default set covers httpware.
import { fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { flag, numberOption, positional } from './lib/cli.mjs';
import { analyse } from './lib/cpu-profile.mjs';
import { snapshotHttpware } from './lib/httpware.mjs';

const seconds = numberOption('seconds', 5);
const top = numberOption('top', 12);
const wanted = positional;
const variants = wanted.length
  ? wanted
  : [
      'logger:combined',
      'logger:dev',
      'logger:tiny',
      'parsers:json-100b',
      'parsers:json-10kb',
      'parsers:urlencoded-flat',
      'parsers:urlencoded-browser',
      'parsers:urlencoded-nested',
      'parsers:text-10kb',
      'parsers:raw-1mb',
      'parsers:gzip-json-10kb',
    ];

const build = await snapshotHttpware({ fromSource: flag('build') });
const dir = new URL('profiles/', import.meta.url);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
console.log(`httpware build ${build}; ${seconds} s per variant after warm-up; ns per request\n`);

function specOf(name) {
  const [impl, rest] = name.includes('@') ? name.split('@') : ['httpware', name];
  const [group, what] = rest.split(':');
  return group === 'logger' ? { group, impl, format: what } : { group, impl, kase: what };
}

const ours = (impl) => (frame) => {
  const url = frame.url ?? '';
  if (impl === 'httpware') return url.endsWith('/dist/index.cjs');
  return url.includes(`node_modules/${impl}/`);
};

for (const name of variants) {
  const spec = specOf(name);
  const child = fork(new URL('lib/worker.mjs', import.meta.url), [JSON.stringify(spec)]);
  let id = 0;
  const pending = new Map();
  const call = (m) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      child.send({ ...m, id });
    });
  await new Promise((resolve) => child.once('message', resolve));
  child.on('message', (m) => pending.get(m.id)?.(m));
  await call({ cmd: 'warmup', minMs: 1500, maxMs: 4000 });
  const file = new URL(`${name.replace(/[^\w-]+/g, '_')}.cpuprofile`, dir).pathname;
  const run = await call({ cmd: 'profile', ms: seconds * 1000, file });
  child.disconnect();
  const result = analyse(file, run.requests, ours(spec.impl));
  const pct = (ns) => `${((100 * ns) / result.totalNs).toFixed(1).padStart(5)} %`;
  const per = (ns) => `${Math.round(ns).toLocaleString('en-US').padStart(7)} ns`;
  console.log(
    `== ${spec.impl} ${name.replace(/^.*@/, '')}: ${Math.round(run.ns / run.requests)} ns/req wall, ` +
      `${Math.round(result.totalNs)} ns/req sampled (profiling adds its own cost)`,
  );
  console.log('  self time, all code:');
  for (const [k, ns] of result.self.slice(0, top)) console.log(`    ${pct(ns)} ${per(ns)}  ${k}`);
  console.log(`  inclusive time, ${spec.impl}'s own functions:`);
  for (const [k, ns] of result.inclusive.slice(0, top))
    console.log(`    ${pct(ns)} ${per(ns)}  ${k}`);
  console.log('');
}
