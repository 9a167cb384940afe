// The Web examples of Bun and Deno (examples/web/), started as their users start them and
// checked by the same checks as the Node ones (test/helpers/examples.ts): on Bun, bun.ts and
// the Hono app (hono.ts, @hono/node-server on Bun's node:http); on Deno, deno.ts.
//
//   bun test/runtimes/examples.ts
//   deno run --allow-all --sloppy-imports test/runtimes/examples.ts
import { type RunningExample, startExample, webExampleChecks } from '../helpers/examples.js';
import { type RunnerCheck, runChecks, runtimeName } from './runner.js';

// The command lines the examples' own headers give.
const examples: ReadonlyArray<readonly [string, readonly string[]]> =
  runtimeName === 'bun'
    ? [
        ['bun.ts', []],
        ['hono.ts', []],
      ]
    : [['deno.ts', ['run', '--allow-net', '--allow-env']]];

const checks: RunnerCheck[] = [];
for (const [file, runner] of examples) {
  let example: RunningExample | undefined;
  checks.push({
    name: `examples/web/${file}: starts`,
    run: async () => {
      example = await startExample(`web/${file}`, {}, runner);
    },
  });
  for (const { name, run } of webExampleChecks) {
    checks.push({
      name: `examples/web/${file}: ${name}`,
      run: async () => {
        if (example === undefined) throw new Error(`${file} did not start`);
        await run(example, '/items');
      },
    });
  }
  checks.push({ name: `examples/web/${file}: stops`, run: async () => example?.stop() });
}

await runChecks('the Web examples', checks);
