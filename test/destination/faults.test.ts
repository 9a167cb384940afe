// A target that fails: a full disk (/dev/full: ENOSPC), a closed descriptor (EBADF), a
// reader that went away (EPIPE), a path that cannot be opened (ENOENT). The server answers
// every request, the lost lines are counted in stats(), each kind of failure is warned once,
// and writing resumes when the target works again.
import assert from 'node:assert/strict';
import { fstatSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Destination } from '../../src/logger/destination/types.js';
import { logger } from '../../src/logger/index.js';
import {
  delay,
  destinations,
  get,
  idsOf,
  Load,
  startServer,
  tempDir,
} from '../helpers/destination.js';
import { startServer as startTestServer } from '../helpers/index.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();
const dir = tempDir();
const REQUESTS = 40;

const open = destinations();

/** REQUESTS requests through a logger writing to `destination`; the statuses answered. */
async function serve(destination: Destination, first = 0): Promise<number[]> {
  const server = await startTestServer({
    middleware: [logger(':url', { stream: destination })],
    handler: (_req, res) => res.end('ok'),
  });
  try {
    const statuses: number[] = [];
    for (let i = first; i < first + REQUESTS; i += 1) {
      statuses.push((await fetch(`${server.origin}/n/${i}`)).status);
    }
    return statuses;
  } finally {
    await server.close();
  }
}

const allAnswered = Array.from({ length: REQUESTS }, () => 200);

describe('a target that fails', () => {
  test('a full disk (/dev/full, ENOSPC): the server answers, every line is counted dropped, one warning', async () => {
    const destination = open('/dev/full');
    assert.deepEqual(await serve(destination), allAnswered);
    await destination.flush().catch(() => undefined);
    const stats = destination.stats();
    assert.deepEqual([stats.written, stats.dropped, stats.held], [0, REQUESTS, 0]);
    assert.equal(stats.lastError, 'ENOSPC');
    assert.ok(stats.errors >= 1);
    const warned = await warnings.of('HTTPWARE_LOGGER_DESTINATION');
    assert.equal(warned.length, 1);
    assert.match(warned[0]?.message ?? '', /ENOSPC/);
  });

  test('a closed descriptor (EBADF): the server answers, every line is counted dropped, one warning', async () => {
    const fd = 1000;
    assert.throws(() => fstatSync(fd), { code: 'EBADF' }, 'the descriptor is not open');
    const destination = open(fd, { sync: true });
    assert.deepEqual(await serve(destination), allAnswered);
    const stats = destination.stats();
    assert.deepEqual([stats.written, stats.dropped, stats.lastError], [0, REQUESTS, 'EBADF']);
    assert.equal(stats.errors, REQUESTS, 'each line, written at once, failed on its own');
    assert.equal((await warnings.of('HTTPWARE_LOGGER_DESTINATION')).length, 1);
  });

  test('a path that cannot be opened: lines are dropped and counted, one warning; once it can, writing resumes after a notice of what was dropped', async () => {
    const file = join(dir, 'later', 'access.log');
    const destination = open(file);
    assert.deepEqual(await serve(destination), allAnswered);
    await destination.flush().catch(() => undefined);
    assert.deepEqual(destination.stats().dropped, REQUESTS);
    assert.equal(destination.stats().lastError, 'ENOENT');
    const warned = await warnings.of('HTTPWARE_LOGGER_DESTINATION');
    assert.equal(warned.length, 1);

    mkdirSync(join(dir, 'later'));
    await delay(1100); // a path that failed is tried again at most once a second
    assert.deepEqual(await serve(destination, REQUESTS), allAnswered);
    await destination.flush();
    const text = readFileSync(file, 'utf8');
    assert.match(
      text.split('\n')[0] ?? '',
      new RegExp(`^httpware: ${REQUESTS} log lines dropped between \\S+ and \\S+ \\(ENOENT\\)$`),
    );
    assert.deepEqual(
      idsOf(text),
      Array.from({ length: REQUESTS }, (_, i) => REQUESTS + i),
    );
    assert.deepEqual(destination.stats().written, REQUESTS);
  });

  test('mkdir: true creates the missing parent folders', async () => {
    const file = join(dir, 'a', 'b', 'access.log');
    const destination = open(file, { mkdir: true });
    assert.deepEqual(await serve(destination), allAnswered);
    await destination.flush();
    assert.equal(idsOf(readFileSync(file, 'utf8')).length, REQUESTS);
  });

  test('a reader that went away (EPIPE) on standard output: the server answers, every line is counted dropped, one warning', async () => {
    const server = await startServer('1', {}, { stdout: 'pipe' });
    server.child.stdout?.destroy();
    const load = new Load(server.port, 4);
    await load.until(200);
    await load.stop();
    await delay(50); // the last batch's delay
    const { stats } = JSON.parse(await get(server.port, '/stats')) as {
      stats: { written: number; dropped: number; lastError: string };
    };
    assert.equal(stats.written, 0);
    assert.equal(stats.dropped, load.answered.length);
    assert.equal(stats.lastError, 'EPIPE');
    server.child.kill('SIGTERM');
    await server.ended;
    assert.equal(server.stderr().match(/HTTPWARE_LOGGER_DESTINATION/g)?.length, 1);
  });

  test('a disk that fills in the middle of a line (EFBIG past a size limit): once space is freed, the notice of what was dropped starts a line of its own', async () => {
    const file = join(dir, 'filling.log');
    const server = await startServer(file, {}, { fileSizeKiB: 16 });
    const load = new Load(server.port, 4, 700);
    // Three failed batches: the one the limit cut, and two tried whole while it is reached.
    let errors = 0;
    while (errors < 3) {
      await delay(20);
      errors = (JSON.parse(await get(server.port, '/stats')) as { stats: { errors: number } }).stats
        .errors;
    }
    const before = readFileSync(file, 'utf8');
    assert.ok(!before.endsWith('\n'), 'the failed write cut a line');
    truncateSync(file); // space freed: appending works again
    const freed = load.answered.length;
    await load.until(freed + 50);
    await load.stop();
    server.child.kill('SIGTERM');
    await server.ended;
    const lines = (before + readFileSync(file, 'utf8')).split('\n');
    const notices = lines.filter((line) => line.includes('log lines dropped'));
    assert.equal(notices.length, 1);
    assert.match(notices[0] ?? '', /^httpware: \d+ log lines dropped between .* \(EFBIG\)$/);
  });
});
