// Instructions per request under valgrind's callgrind: repeatable whatever the machine's load.
// A variant runs twice in fresh processes, with `requests` and twice as many requests after
// the same warm-up; the difference of the two totals, divided by `requests`, is the
// steady-state cost of one request (start-up, warm-up and JIT compilation cancel out).
import { spawn } from 'node:child_process';

const countRun = new URL('count-run.mjs', import.meta.url).pathname;
/** The Web door's logger runs apart (count-web.mjs): a fetch handler called in process. */
const countWeb = new URL('count-web.mjs', import.meta.url).pathname;

/** Total instructions of one process running `measured` requests of `spec` after `warmup`. */
export function countInstructions(spec, warmup, measured) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      // Background compiler and GC threads and time-driven GC heuristics made two runs of the
      // same variant differ by more than a logger costs: one thread, GC on a fixed schedule,
      // and fixed seeds (hash tables laid out alike in every run).
      '--single-threaded',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      spec.group === 'web' ? countWeb : countRun,
      JSON.stringify(spec),
      String(warmup),
      String(measured),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      const m = /Collected : (\d+)/.exec(err);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`no instruction count for ${JSON.stringify(spec)}`));
    });
  });
}

/** Instructions per request of `spec` in the steady state (see above). */
export async function instructionsPerRequest(spec, { requests, warmup }) {
  const once = await countInstructions(spec, warmup, requests);
  const twice = await countInstructions(spec, warmup, 2 * requests);
  return (twice - once) / requests;
}
