// Bundled into one file (esbuild, as Next.js and serverless builds do), a server logs through
// `destination` with no other file beside it: nothing is loaded from a path at run time and
// nothing runs on a worker thread (pino's transports do both: pino #1738, #2028). Runs the
// built package (`npm run build`), through its public name `httpware/logger`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { compare, Load, tempDir } from '../helpers/destination.js';

const dir = tempDir();

/** Bundles fixtures/bundled-server.mjs into `app`, runs it under load, ends it with SIGTERM. */
async function bundleAndRun(format: 'cjs' | 'esm', banner?: string) {
  const app = join(dir, format);
  mkdirSync(app);
  const out = `server.${format === 'cjs' ? 'cjs' : 'mjs'}`;
  await build({
    entryPoints: [new URL('./fixtures/bundled-server.mjs', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format,
    outfile: join(app, out),
    logLevel: 'silent',
    ...(banner === undefined ? {} : { banner: { js: banner } }),
  });
  assert.deepEqual(readdirSync(app), [out]);
  const file = join(dir, `${format}.log`);
  const child = spawn(process.execPath, [out, file], {
    cwd: app,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /PORT (\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error(stderr)));
  });
  const load = new Load(port, 8);
  await load.until(200);
  await load.stop();
  child.kill('SIGTERM');
  const [, signal] = await once(child, 'exit');
  assert.equal(signal, 'SIGTERM');
  const logged = [...readFileSync(file, 'utf8').matchAll(/"GET \/n\/(\d+) HTTP\/1\.1" 200/g)].map(
    (match) => Number(match[1]),
  );
  assert.deepEqual(compare(load.answered, logged), { missing: [], twice: [] });
  assert.deepEqual(readdirSync(app), [out], 'the bundle wrote or needed no other file');
}

test('bundled by esbuild into one CommonJS file, a server logs every request through destination with no other file present', async () => {
  await bundleAndRun('cjs');
});

// esbuild's ESM output has no `require` for the CommonJS it contains (httpware's build is
// CommonJS): the usual banner gives it one, as for any CommonJS package using Node's modules.
test('bundled into one ESM file with the createRequire banner, a server logs every request through destination', async () => {
  await bundleAndRun(
    'esm',
    "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  );
});
