// The Web suite against a Next.js App Router route handler (test/fixtures/next-app): the app
// built with `next build` and served by `next start`, as a user deploys it. It takes a minute
// or more, so it is not a `.test.ts` file that `npm test` runs: the `next` job of
// scripts/ci.mjs runs it (`node scripts/run-tests.mjs test/next/app.next.ts`).
//
// httpware is imported by its name, as a user's app does: test/fixtures/node_modules/httpware
// is made a link to this repository (what `npm link` or a `file:` dependency make), so Next's
// bundler resolves `httpware/parsers` through package.json's exports to the build in dist/.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type ServedExample, webExampleChecks } from '../helpers/examples.js';
import { freePort, type WebServer } from '../helpers/web-servers.js';
import { describeWebSuite } from '../web/describe.js';

const root = new URL('../../', import.meta.url).pathname;
const appDir = `${root}test/fixtures/next-app`;
const next = createRequire(`${appDir}/`).resolve('next/dist/bin/next');
/** `next build` takes about a minute on two loaded cores; the start after it, seconds. */
const BUILD_AND_START_TIMEOUT_MS = 8 * 60_000;

function linkHttpware(): void {
  const modules = `${root}test/fixtures/node_modules`;
  mkdirSync(modules, { recursive: true });
  rmSync(`${modules}/httpware`, { force: true });
  symlinkSync('../../..', `${modules}/httpware`);
}

/** Runs `next <args>` in the app's folder; resolves once it exits 0. */
async function nextCommand(args: string[]): Promise<void> {
  const child = spawn(process.execPath, [next, ...args], {
    cwd: appDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`next ${args.join(' ')} exited with ${code}`);
}

/** Waits until the server answers, or fails when it exits first. */
async function answering(child: ChildProcess, origin: string): Promise<void> {
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`next start exited with ${code}`);
  });
  for (;;) {
    const reply = fetch(`${origin}/__lines`).then(
      (response) => response.ok,
      () => false,
    );
    if (await Promise.race([reply, exited])) return;
    await delay(200);
  }
}

/** What `next start` printed: the example route's log lines go to the server's stdout. */
let printed = '';
const output = new PassThrough({ encoding: 'utf8' });
output.on('data', (text: string) => {
  printed += text;
});

async function startNext(): Promise<WebServer> {
  linkHttpware();
  const started = Date.now();
  // Turbopack (Next 16's default) takes the repository's src/middleware.ts for the app's own
  // middleware file, so the app is built with webpack.
  await nextCommand(['build', '--webpack']);
  const built = Date.now();
  const port = await freePort();
  const child = spawn(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: appDir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  child.stdout?.pipe(output);
  const origin = `http://127.0.0.1:${port}`;
  await answering(child, origin);
  console.log(
    `# next build: ${Math.round((built - started) / 1000)} s, next start: ${Math.round((Date.now() - built) / 1000)} s`,
  );
  return {
    origin,
    port,
    transport: 'http',
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}

/** One build and one server for both suites below; the second closes it. */
let started: Promise<WebServer> | undefined;
const startOnce = () => {
  started ??= startNext();
  return started;
};

// The server is closed by the Web suite's describe, which runs after this one.
describe('the Next.js example route (examples/web/next), built into the app', () => {
  let example: ServedExample | undefined;
  before(
    async () => {
      const { origin } = await startOnce();
      const waitFor = async (pattern: RegExp) => {
        while (!pattern.test(printed)) await once(output, 'data');
      };
      example = { base: origin, output: () => printed, waitFor };
    },
    { timeout: BUILD_AND_START_TIMEOUT_MS },
  );
  for (const { name, run } of webExampleChecks) {
    test(name, () => {
      if (example === undefined) throw new Error('next start did not start');
      return run(example, '/api/items');
    });
  }
});

describeWebSuite('Next.js App Router route handler (next start)', startOnce, {
  startTimeoutMs: BUILD_AND_START_TIMEOUT_MS,
});
