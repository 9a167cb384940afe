// Log rotation as logrotate does it: the file is renamed, then the process is told to reopen
// it (`reopen()`, or the signal named by `reopenOn`). Under load, no line is lost and none is
// written twice: lines held before the reopen go to the renamed file, later ones to the new.
import assert from 'node:assert/strict';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  compare,
  get,
  idsIn,
  Load,
  type ServerChild,
  startServer,
  tempDir,
} from '../helpers/destination.js';

const dir = tempDir();

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
