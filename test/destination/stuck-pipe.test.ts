// A stdout pipe whose reader is slow or stopped, at the moments that matter: a signal the
// application handles (the process lives on), the exit (what is held is written while the
// reader takes it, and what cannot be is said on stderr), and two writers on the one pipe.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { delay, get, idsOf, Load, startServer } from '../helpers/destination.js';

interface Stats {
  written: number;
  dropped: number;
  held: number;
  errors: number;
}

async function stats(port: number): Promise<Stats> {
  return (JSON.parse(await get(port, '/stats')) as { stats: Stats }).stats;
}

/**
 * Everything the child writes to stdout: nothing is read until `pace` or `drain`. A listener
 * is attached from the start: a child's stdout that nobody listens to is resumed by Node when
 * the child exits, and what it held would be thrown away.
 */
function pacedReader(stdout: Readable) {
  let output = '';
  let draining = false;
  let timer: NodeJS.Timeout | undefined;
  stdout.setEncoding('utf8');
  const take = () => {
    for (let chunk = stdout.read(); chunk !== null; chunk = stdout.read()) output += chunk;
  };
  stdout.on('readable', () => {
    if (draining) take();
  });
  const ended = new Promise((resolve) => stdout.once('end', resolve));
  return {
    output: () => output,
    /** Reads about `bytes` every `everyMs` from now on. */
    pace(bytes: number, everyMs: number) {
      timer = setInterval(() => {
        const chunk = stdout.read(Math.min(bytes, stdout.readableLength)) as string | null;
        if (chunk !== null) output += chunk;
      }, everyMs);
    },
    /** Reads everything from now on, until the end. */
    async drain() {
      clearInterval(timer);
      draining = true;
      take();
      await ended;
    },
  };
}

describe('a stdout pipe that is slow or stuck', () => {
  test('a signal the application handles (a reload on SIGHUP) while the pipe is stuck: nothing is dropped and the server answers at once', async () => {
    const server = await startServer('1', { appReload: 'SIGHUP' }, { stdout: 'pipe' });
    const stdout = server.child.stdout as Readable;
    const reader = pacedReader(stdout);
    const load = new Load(server.port, 8, 2048);
    // The pipe (64 KiB) and the reader's buffer fill, then lines are held.
    let now = await stats(server.port);
    while (now.held < 256 * 1024) {
      await delay(20);
      now = await stats(server.port);
    }
    server.child.kill('SIGHUP');
    const asked = Date.now();
    const after = await stats(server.port);
    const answeredIn = Date.now() - asked;
    while (!server.stderr().includes('APPLICATION RELOAD SIGHUP')) await delay(10);
    assert.equal(after.dropped, 0, 'no line dropped: the process is not ending');
    assert.equal(after.errors, 0);
    // Held for exitTimeoutMs (1 s) by a drain at the signal, it would have answered after it.
    assert.ok(answeredIn < 900, `answered ${answeredIn} ms after the signal`);
    await load.stop();
    server.child.kill('SIGTERM');
    await Promise.all([server.ended, reader.drain()]);
    assert.equal(new Set(idsOf(reader.output())).size, load.answered.length);
  });

  test('a slow reader at exit that keeps taking is waited for past exitTimeoutMs: every line is written', async () => {
    const held = { batchMs: 60_000, batchBytes: 64 * 1024 * 1024, exitTimeoutMs: 300 };
    const server = await startServer('1', held, { stdout: 'pipe' });
    const reader = pacedReader(server.child.stdout as Readable);
    const load = new Load(server.port, 8, 1024);
    await load.until(1200); // about 1.2 MB held
    await load.stop();
    const exited = get(server.port, '/exit').catch(() => undefined);
    reader.pace(16 * 1024, 25); // about 650 kB a second: two seconds to take it all
    await exited;
    await Promise.all([server.ended, reader.drain()]);
    const written = new Set(idsOf(reader.output()));
    assert.deepEqual(
      load.answered.filter((id) => !written.has(id)),
      [],
      'every answered request is in the output',
    );
    assert.doesNotMatch(server.stderr(), /dropped at exit/);
  });

  test('lines a stuck pipe cannot take at exit are said on stderr, with how many and why', async () => {
    const held = { batchMs: 60_000, batchBytes: 64 * 1024 * 1024, exitTimeoutMs: 200 };
    const server = await startServer('1', held, { stdout: 'pipe' });
    const reader = pacedReader(server.child.stdout as Readable);
    const load = new Load(server.port, 8, 1024);
    await load.until(400);
    await load.stop();
    await get(server.port, '/exit').catch(() => undefined);
    const ended = await server.ended;
    await reader.drain();
    assert.deepEqual(ended, { code: 3, signal: null });
    const said = /httpware: (\d+) log lines to fd 1 dropped at exit \(ETIMEDOUT\)/.exec(
      server.stderr(),
    );
    assert.ok(said, server.stderr());
    const written = new Set(idsOf(reader.output())).size;
    assert.equal(written + Number(said[1]), load.answered.length);
  });

  test('two destinations on one slow stdout pipe: every line arrives whole, none spliced into another', async () => {
    const server = await startServer('1', { twin: true }, { stdout: 'pipe' });
    const reader = pacedReader(server.child.stdout as Readable);
    reader.pace(3000, 5); // slower than the load: the pipe takes parts of each batch
    const load = new Load(server.port, 16, 700);
    await load.until(3000);
    await load.stop();
    server.child.kill('SIGTERM');
    await Promise.all([server.ended, reader.drain()]);
    const lines = reader.output().split('\n').slice(0, -1);
    const broken = lines.filter((line) => !/^(?:twin)?\/n\/\d+\/x+$/.test(line));
    assert.deepEqual(broken.slice(0, 3), [], `${broken.length} of ${lines.length} lines broken`);
    assert.equal(lines.length, 2 * load.answered.length);
  });
});
