// Nothing held is lost when the process ends, and it ends as it would without httpware: the
// same exit code, the same signal. Each test runs a server under load in a child process
// with batches that would wait 60 s (so every line is held when the end comes), ends it one
// way, and checks the file against the requests the clients saw answered; the same server
// without httpware, ended the same way, gives the status to compare with.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { build } from 'esbuild';
import {
  compare,
  delay,
  get,
  idsIn,
  Load,
  type ServerChild,
  startServer,
  tempDir,
} from '../helpers/destination.js';

const dir = tempDir();
const HELD = { batchMs: 60_000, batchBytes: 64 * 1024 * 1024 };

type Ending = (server: ServerChild) => Promise<unknown>;

const signal =
  (name: NodeJS.Signals): Ending =>
  async (server) =>
    server.child.kill(name);
const route =
  (path: string): Ending =>
  (server) =>
    get(server.port, path).catch(() => undefined);

/** Runs the server under load, ends it, and returns what it logged and how it ended. */
async function endUnderLoad(name: string, end: Ending, options: Record<string, unknown> = {}) {
  const file = join(dir, `${name}.log`);
  const [server, bare] = await Promise.all([
    startServer(file, { ...HELD, ...options }),
    startServer(file, { bare: true, ...options }),
  ]);
  const load = new Load(server.port);
  await load.until(300);
  await end(server);
  await load.done;
  await end(bare);
  // A process that does not end is a failure, not a hang of the test.
  const stillRunning = delay(15_000).then(() => ({ code: null, signal: 'still running' }));
  const [ended, bareEnded] = await Promise.all([
    Promise.race([server.ended, stillRunning]),
    bare.ended,
  ]);
  return { answered: load.answered, logged: idsIn(file), ended, bareEnded, server, file };
}

describe('nothing held is lost at the end, and the process ends as it would without httpware', {
  concurrency: 3,
}, () => {
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${name} under load with no handler of the application's: every answered request is logged, and the process dies of ${name}`, async () => {
      const run = await endUnderLoad(name, signal(name));
      assert.ok(run.answered.length >= 300);
      assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
      assert.deepEqual(run.ended, { code: null, signal: name });
      assert.deepEqual(run.ended, run.bareEnded);
    });
  }

  test('two copies of httpware in one process (two bundles): SIGTERM still ends it by SIGTERM, every line in both files', async () => {
    const copy = join(dir, 'copy.cjs');
    await build({
      entryPoints: [new URL('../../src/logger/index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: copy,
      logLevel: 'silent',
    });
    const run = await endUnderLoad('two-copies', signal('SIGTERM'), { secondCopy: copy });
    assert.deepEqual(run.ended, { code: null, signal: 'SIGTERM' });
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.deepEqual(compare(run.answered, idsIn(`${run.file}.2`)), { missing: [], twice: [] });
  });

  test('process.exit() in a request handler: every answered request is logged, and the exit code is kept', async () => {
    const run = await endUnderLoad('exit', route('/exit'));
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.deepEqual(run.ended, { code: 3, signal: null });
    assert.deepEqual(run.ended, run.bareEnded);
  });

  test('an uncaught exception: every answered request is logged, and the process fails as it would (code 1, the error on stderr)', async () => {
    const run = await endUnderLoad('throw', route('/throw'));
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.deepEqual(run.ended, { code: 1, signal: null });
    assert.deepEqual(run.ended, run.bareEnded);
    assert.match(run.server.stderr(), /thrown by the application/);
  });

  test("an application's own SIGTERM handler decides: the process is not ended for it, it ends when the application is done, and every line is logged", async () => {
    const run = await endUnderLoad('app-handler', signal('SIGTERM'), { appSignal: 'SIGTERM' });
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.equal(
      run.server.stderr().match(/APPLICATION SIGTERM/g)?.length,
      1,
      "the application's handler ran once: the signal was not sent again",
    );
    // The handler closed the server: the event loop ran out and the process exited with 0.
    assert.deepEqual(run.ended, { code: 0, signal: null });
    assert.deepEqual(run.ended, run.bareEnded);
  });

  test("an application's process.once SIGTERM handler made before the destination still decides: the process ends when it is done, with 0", async () => {
    const run = await endUnderLoad('app-once', signal('SIGTERM'), { appOnce: 'SIGTERM' });
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.match(run.server.stderr(), /APPLICATION SIGTERM/);
    assert.deepEqual(run.ended, { code: 0, signal: null });
    assert.deepEqual(run.ended, run.bareEnded);
  });

  test("signal-exit's onExit in the process: SIGTERM still ends it by SIGTERM, signal-exit's callback runs, every line is logged", async () => {
    const run = await endUnderLoad('signal-exit', signal('SIGTERM'), { signalExit: true });
    assert.deepEqual(compare(run.answered, run.logged), { missing: [], twice: [] });
    assert.match(run.server.stderr(), /SIGNAL-EXIT SIGTERM/);
    assert.deepEqual(run.ended, { code: null, signal: 'SIGTERM' });
    assert.deepEqual(run.ended, run.bareEnded);
  });
});
