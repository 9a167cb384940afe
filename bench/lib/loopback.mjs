// What the framework benches (koa.mjs, fastify.mjs) share: their command line, the httpware
// build they measure, variants taking turns over rounds, and the table and summary they print.
// Each bench keeps its own servers and load.
import { numberOption } from './cli.mjs';
import { loadHttpware, snapshotHttpware } from './httpware.mjs';
import { median } from './stats.mjs';

/** `--rounds=N` (default 3): how many times each variant is measured. */
export const ROUNDS = numberOption('rounds', 3);
/** `--seconds=N` (default 3): how long one measure loads a server. */
export const SECONDS = numberOption('seconds', 3);

/**
 * The httpware build to measure: a snapshot of the current build (lib/httpware.mjs), so that
 * a rebuild during the run changes nothing, or the entry HTTPWARE_BENCH_ENTRY names.
 */
export async function httpwareUnderMeasure() {
  if (!process.env.HTTPWARE_BENCH_ENTRY) await snapshotHttpware();
  return loadHttpware();
}

/**
 * Each variant's median requests per second over ROUNDS rounds. `measure(name)` gives one
 * figure; within a round every variant takes its turn, in reverse order every other round, so
 * neither end of the order is always first. With `warmUp`, each is measured once uncounted.
 */
export async function medianRates(names, measure, { warmUp = false } = {}) {
  const figures = Object.fromEntries(names.map((name) => [name, []]));
  if (warmUp) for (const name of names) await measure(name);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      figures[name].push(await measure(name));
      process.stderr.write(
        `round ${round + 1}: ${name} ${Math.round(figures[name].at(-1))} req/s\n`,
      );
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(figures[name])]));
}

/**
 * Prints `title`, a table of each variant's rate and its ratio to each of `bases` (variant
 * names), and last a JSON line `{ [group]: { [variant]: { rate, [base]: ratio } } }`.
 */
export function printRates(group, title, rates, bases) {
  console.log(`${title}; ${ROUNDS} rounds of ${SECONDS} s, node ${process.version}`);
  console.log(`| variant | req/s (median) |${bases.map((base) => ` vs ${base} |`).join('')}`);
  console.log(`| --- | ---: |${' ---: |'.repeat(bases.length)}`);
  const summary = {};
  for (const [name, rate] of Object.entries(rates)) {
    const ratios = bases.map((base) => rate / rates[base]);
    summary[name] = { rate: Math.round(rate) };
    bases.forEach((base, i) => {
      summary[name][base] = Number(ratios[i].toFixed(3));
    });
    console.log(
      `| ${name} | ${Math.round(rate)} |${ratios.map((ratio) => ` ${ratio.toFixed(3)} |`).join('')}`,
    );
  }
  console.log(JSON.stringify({ [group]: summary }));
}
