import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import {
  type RunningExample,
  type ServedExample,
  startExample,
  webExampleChecks,
} from '../helpers/examples.js';
import { packageRoot, run as runCommand } from '../helpers/packed.js';
import { bundleWorker, startWorkerd, type WebServer } from '../helpers/web-servers.js';

// The Web examples that run on Node, as their users run them: the Hono app with `tsx`, and
// the Worker bundled as wrangler bundles it and served by workerd (miniflare) with the
// settings of examples/web/wrangler.json. Bun's, Deno's and Next.js's run in their CI jobs
// (test/runtimes/examples.ts, test/next/app.next.ts).

describe('the Hono example on Node (@hono/node-server)', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('web/hono.ts', {}, ['--import', 'tsx']);
  });
  after(() => example.stop());

  for (const { name, run } of webExampleChecks) test(name, () => run(example, '/items'));
});

interface WranglerConfig {
  main: string;
  compatibility_date: string;
  compatibility_flags: string[];
  vars: Record<string, string>;
}

/** The Worker example, bundled and served by workerd as `wrangler dev` would serve it. */
async function startWorkerExample(): Promise<{ example: ServedExample; server: WebServer }> {
  const dir = new URL('../../examples/web/', import.meta.url);
  const config = JSON.parse(readFileSync(new URL('wrangler.json', dir), 'utf8')) as WranglerConfig;
  const printed = new PassThrough({ encoding: 'utf8' });
  let output = '';
  printed.on('data', (text: string) => {
    output += text;
  });
  const server = await startWorkerd({
    script: await bundleWorker(new URL(config.main, dir)),
    compatibilityFlags: config.compatibility_flags,
    bindings: config.vars,
    onOutput: (text) => printed.write(text),
  });
  const waitFor = async (pattern: RegExp) => {
    while (!pattern.test(output)) await once(printed, 'data');
  };
  return { example: { base: server.origin, output: () => output, waitFor }, server };
}

describe('the Cloudflare Worker example on workerd (miniflare)', () => {
  let worker: { example: ServedExample; server: WebServer } | undefined;
  before(
    async () => {
      worker = await startWorkerExample();
    },
    { timeout: 60_000 },
  );
  after(() => worker?.server.close());

  for (const { name, run } of webExampleChecks) {
    test(name, () => {
      if (worker === undefined) throw new Error('the worker did not start');
      return run(worker.example, '/items');
    });
  }
});

test('every Web example compiles unchanged in a strict TypeScript project', () => {
  // The runtimes' globals (Bun, Deno, the Workers types) are declared beside the project, as a
  // user's project has them from its runtime's types; tsc prints its errors and exits non-zero.
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = new URL('../types/web-examples/tsconfig.json', import.meta.url).pathname;
  runCommand(process.execPath, [tsc, '-p', project], packageRoot);
});
