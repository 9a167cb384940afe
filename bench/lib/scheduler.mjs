// Runs variants side by side on a noisy machine: one process per variant, the processes of one
// subgroup at a time, warmed up, then timed batches cut into slices that take turns across
// the variants (A B C A B C ..., the order rotating), and several rounds of fresh processes.
// Ratios are taken within a cycle, where the machine's mood was the same for every variant.
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const here = new URL('.', import.meta.url);

class Child {
  constructor(script, args, execArgv) {
    this.proc = fork(new URL(script, here), args, {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.nextId = 0;
    this.pending = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.proc.once('error', reject);
      this.proc.once('exit', (code) => reject(new Error(`${script} exited (${code}) at start`)));
      this.proc.once('message', resolve);
    });
    this.proc.on('message', (msg) => {
      const settle = this.pending.get(msg.id);
      if (!settle) return;
      this.pending.delete(msg.id);
      if (msg.error) settle.reject(new Error(msg.error));
      else settle.resolve(msg);
    });
    this.proc.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`worker exited (${code})`));
      this.pending.clear();
    });
  }

  call(msg) {
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { resolve, reject });
      this.proc.send({ ...msg, id });
    });
  }

  stop() {
    if (this.proc.connected) this.proc.disconnect();
    return new Promise((resolve) => {
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) resolve();
      else this.proc.once('exit', () => resolve());
    });
  }
}

function execArgvFor(variant, options, round) {
  if (!options.cpuProf || !variant.spec.impl.startsWith('httpware')) return [];
  mkdirSync(options.cpuProf, { recursive: true });
  const name = `${variant.key}.round${round + 1}.cpuprofile`.replace(/[^\w.-]+/g, '_');
  return ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`, `--cpu-prof-name=${name}`];
}

async function startWorkers(variants, options, round = 0) {
  const workers = new Map();
  // Two at a time: the machine has two cores, and start-up is not measured.
  const queue = [...variants];
  const startOne = async () => {
    for (let v = queue.shift(); v; v = queue.shift()) {
      const child = new Child(
        'worker.mjs',
        [JSON.stringify(v.spec)],
        execArgvFor(v, options, round),
      );
      const hello = await child.ready;
      child.port = hello.port;
      workers.set(v.key, child);
    }
  };
  await Promise.all([startOne(), startOne()]);
  return workers;
}

const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/**
 * In-process groups. subgroups: [{ key, variants: [{ key, spec, batchScale? }] }].
 * Returns samples[subgroupKey][round][cycle][variantKey] = { ns, wallNs, cpuNs } per request
 * (ns is the one options.metric chose: wall-clock time, or the process's CPU time), and
 * memory[variantKey][round] = { maxRss, baselineRss }, and lineBytes[variantKey] for loggers.
 *
 * Only one subgroup's processes are alive at a time, and the subgroups take turns at going
 * first from round to round. With every subgroup's processes alive at once (33 for the
 * logger), each one idle for seconds between its batches, the formats measured in a run
 * disagreed with what each costs alone: httpware's `tiny` came out at 1.85x the floor and its
 * `combined` at 1.30x in every round, where the two side by side in one subgroup measure
 * 1.20x and 1.32x, as their instruction counts say they should.
 */
export async function runInProcess(subgroups, options, log) {
  const result = {
    samples: Object.fromEntries(subgroups.map((sg) => [sg.key, []])),
    memory: {},
    // Bytes of the line each logger wrote for the checked request (newline included).
    lineBytes: {},
    problems: [],
  };
  for (let round = 0; round < options.rounds; round++) {
    log(`  round ${round + 1}/${options.rounds}`);
    for (const sg of rotate(subgroups, round)) {
      result.samples[sg.key][round] = await runSubgroup(sg, options, round, result, log);
    }
  }
  return { ...result, problems: [...new Set(result.problems)] };
}

/** One round of one subgroup in fresh processes: check, warm up, then the timed cycles. */
async function runSubgroup(sg, options, round, { memory, lineBytes, problems }, log) {
  let t0 = Date.now();
  const lap = (what) => {
    log(`    ${sg.key}: ${what} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    t0 = Date.now();
  };
  const variants = sg.variants;
  const workers = await startWorkers(variants, options, round);
  const cycles = [];
  try {
    for (const v of variants) {
      const check = await workers.get(v.key).call({ cmd: 'check' });
      if (!check.ok) problems.push(`${v.key}: ${check.detail}`);
      if (check.lineBytes !== undefined) lineBytes[v.key] = check.lineBytes;
    }
    // Warm-up, two processes at a time: the JIT has to settle before anything is timed.
    const warmQueue = [...variants];
    const unsettled = [];
    const warmOne = async () => {
      for (let v = warmQueue.shift(); v; v = warmQueue.shift()) {
        const w = await workers
          .get(v.key)
          .call({ cmd: 'warmup', minMs: options.warmupMs, maxMs: options.warmupMaxMs });
        if (!w.settled) unsettled.push(v.key);
      }
    };
    await Promise.all([warmOne(), warmOne()]);
    const settled = unsettled.length ? ` (${unsettled.length} not settled within the limit)` : '';
    lap(`started, checked and warmed up${settled}`);
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      cycles.push(await measureCycle(variants, workers, cycle, options, problems));
    }
    lap(`measured ${options.cycles} cycles`);
    for (const v of variants) {
      const m = await workers.get(v.key).call({ cmd: 'memory' });
      memory[v.key] ??= [];
      memory[v.key].push({ maxRss: m.maxRss, baselineRss: m.baselineRss });
    }
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
  return cycles;
}

/**
 * One cycle of a subgroup: each variant's batch, cut into `options.slices` slices that take
 * turns across the variants (A B C A B C ..., the order rotating), summed per variant. The
 * machine's speed drifts within a second; slices a few milliseconds apart see the same drift,
 * where whole batches measured one after another did not.
 */
async function measureCycle(variants, workers, cycle, options, problems) {
  const slices = options.slices ?? 1;
  const totals = new Map(variants.map((v) => [v.key, { requests: 0, ns: 0, cpuNs: 0 }]));
  for (let slice = 0; slice < slices; slice++) {
    for (const v of rotate(variants, cycle + slice)) {
      const ms = (options.batchMs * (v.batchScale ?? 1)) / slices;
      const r = await workers.get(v.key).call({ cmd: 'batch', ms });
      if (r.errors) problems.push(`${v.key}: ${r.errors} errors (${r.lastError})`);
      const total = totals.get(v.key);
      total.requests += r.requests;
      total.ns += r.ns;
      total.cpuNs += r.cpuNs;
    }
  }
  const row = {};
  for (const [key, t] of totals) {
    const wallNs = t.ns / t.requests;
    const cpuNs = t.cpuNs / t.requests;
    row[key] = { ns: options.metric === 'cpu' ? cpuNs : wallNs, wallNs, cpuNs };
  }
  return row;
}

/**
 * Loopback groups: each variant a server process on 127.0.0.1, autocannon in another process,
 * one variant loaded at a time. Returns samples[round][cycle][variantKey] = { rps, cpuNs }.
 */
export async function runLoopback(variants, load, options, log) {
  const samples = [];
  const problems = [];
  for (let round = 0; round < options.rounds; round++) {
    log(`  round ${round + 1}/${options.rounds}: starting ${variants.length} servers`);
    let t0 = Date.now();
    const lap = (what) => {
      log(`    ${what} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      t0 = Date.now();
    };
    const workers = await startWorkers(variants, options);
    const loader = new Child('load.mjs', [], []);
    await loader.ready;
    lap('started');
    const hit = async (v, seconds) => {
      const server = workers.get(v.key);
      const before = await server.call({ cmd: 'cpu' });
      const r = await loader.call({
        ...load,
        url: `http://127.0.0.1:${server.port}${load.path}`,
        seconds,
        rate: options.rate,
      });
      const after = await server.call({ cmd: 'cpu' });
      if (r.errors || r.non2xx) problems.push(`${v.key}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      return { rps: r.requests / r.seconds, cpuNs: (after.cpuNs - before.cpuNs) / r.requests };
    };
    try {
      for (const v of variants) {
        const check = await workers.get(v.key).call({ cmd: 'check' });
        if (!check.ok) problems.push(`${v.key}: ${check.detail}`);
      }
      for (const v of variants) await hit(v, options.warmupSeconds);
      lap('warmed up');
      samples[round] = [];
      for (let cycle = 0; cycle < options.cycles; cycle++) {
        const row = {};
        for (const v of rotate(variants, cycle)) row[v.key] = await hit(v, options.seconds);
        samples[round].push(row);
      }
      lap(`measured ${options.cycles} cycles`);
    } finally {
      await Promise.all([...workers.values(), loader].map((w) => w.stop()));
      lap('stopped');
    }
  }
  return { samples, problems: [...new Set(problems)] };
}
