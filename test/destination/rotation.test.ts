// Log rotation as logrotate does it: the file is renamed, then the process is told to reopen
// it (`reopen()`, or the signal named by `reopenOn`). Under load, no line is lost and none is
// written twice: lines held before the reopen go to the renamed file, later ones to the new.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  compare,
  destinations,
  get,
  idsIn,
  Load,
  type ServerChild,
  startServer,
  tempDir,
} from '../helpers/destination.js';

const dir = tempDir();
const open = destinations();

async function rotateUnderLoad(name: string, reopen: (server: ServerChild) => Promise<unknown>) {
  const file = join(dir, `${name}.log`);
  const rotated = `${file}.1`;
  const server = await startServer(file, { reopenOn: 'SIGHUP' });
  const load = new Load(server.port);
  await load.until(300);
  renameSync(file, rotated);
  await reopen(server);
  const after = load.answered.length;
  await load.until(after + 300);
  await load.stop();
  server.child.kill('SIGTERM');
  assert.equal((await server.ended).signal, 'SIGTERM');
  assert.ok(existsSync(file), 'a new file was opened at the path');
  const old = idsIn(rotated);
  const fresh = idsIn(file);
  assert.ok(old.length >= 300 && fresh.length > 0, `${old.length} old, ${fresh.length} new`);
  assert.deepEqual(compare(load.answered, [...old, ...fresh]), { missing: [], twice: [] });
}

describe('rename and reopen under load', () => {
  test('reopen(): every answered request is logged once, in the renamed file or the new one', async () => {
    await rotateUnderLoad('api', (server) => get(server.port, '/reopen'));
  });

  test('the reopenOn signal (SIGHUP) reopens the file: every answered request is logged once, and the process lives on', async () => {
    await rotateUnderLoad('signal', async (server) => server.child.kill('SIGHUP'));
  });
});

describe('what a reopen opens', () => {
  test('a relative path is the file it named when the destination was made, even after process.chdir', () => {
    const first = join(dir, 'here');
    const second = join(dir, 'elsewhere');
    mkdirSync(first);
    mkdirSync(second);
    const cwd = process.cwd();
    try {
      process.chdir(first);
      const destination = open('relative.log', { sync: true });
      process.chdir(second);
      destination.reopen();
      destination.write('after the reopen\n');
    } finally {
      process.chdir(cwd);
    }
    assert.equal(readFileSync(join(first, 'relative.log'), 'utf8'), 'after the reopen\n');
    assert.equal(existsSync(join(second, 'relative.log')), false);
  });

  test('destinations reopened by one signal share one listener on the process, and each is reopened', () => {
    // SIGHUP, emitted in this process: on Node 24 and later the test runner writes a
    // diagnostic report for SIGUSR2.
    const files = Array.from({ length: 12 }, (_, i) => join(dir, `shared-${i}.log`));
    const [first, ...others] = files;
    const made = [open(first as string, { sync: true, reopenOn: 'SIGHUP' })];
    const listening = process.listenerCount('SIGHUP');
    for (const file of others) made.push(open(file, { sync: true, reopenOn: 'SIGHUP' }));
    assert.equal(process.listenerCount('SIGHUP'), listening);
    for (const file of files) renameSync(file, `${file}.1`);
    process.emit('SIGHUP', 'SIGHUP');
    for (const [i, destination] of made.entries()) destination.write(`line ${i}\n`);
    for (const [i, file] of files.entries())
      assert.equal(readFileSync(file, 'utf8'), `line ${i}\n`);
  });
});
