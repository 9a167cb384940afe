// flush() always settles: resolved once what was held is written, rejected when the target
// is broken or a pipe takes nothing for `exitTimeoutMs`, and waiting for a pipe that is
// full never stops the event loop.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Destination } from '../../src/logger/destination/types.js';
import { destinations, tempDir } from '../helpers/destination.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();
const dir = tempDir();
const MiB = 1024 * 1024;
/** Batches that would wait a minute: what is written is held until flushed. */
const HELD = { batchMs: 60_000, batchBytes: 1024 * MiB };

const open = destinations();

/** Writes `bytes` of 100-character lines; returns how many. */
function fill(destination: Destination, bytes: number): number {
  const line = `${'x'.repeat(99)}\n`;
  const count = Math.ceil(bytes / line.length);
  for (let i = 0; i < count; i += 1) destination.write(line);
  return count;
}

describe('flush()', () => {
  test('settles within a second with megabytes held, every line then in the file', async () => {
    const file = join(dir, 'held.log');
    const destination = open(file, HELD);
    const lines = fill(destination, 8 * MiB);
    assert.ok(destination.stats().held >= 8 * MiB);
    assert.equal(statSync(file).size, 0, 'nothing written before the flush');
    const started = performance.now();
    await destination.flush();
    assert.ok(performance.now() - started < 1000);
    assert.equal(statSync(file).size, lines * 100);
    assert.deepEqual(destination.stats(), {
      written: lines,
      dropped: 0,
      held: 0,
      errors: 0,
      lastError: undefined,
    });
  });

  test('rejects on a broken target (ENOSPC), the lines counted dropped', async () => {
    const destination = open('/dev/full', HELD);
    const lines = fill(destination, MiB);
    await assert.rejects(destination.flush(), { code: 'ENOSPC' });
    assert.equal(destination.stats().dropped, lines);
    assert.equal((await warnings.of('HTTPWARE_LOGGER_DESTINATION')).length, 1);
  });

  test('resolves at once when nothing is held', async () => {
    const destination = open(join(dir, 'empty.log'));
    await destination.flush();
  });

  test('on a pipe nobody reads, rejects after exitTimeoutMs while the event loop keeps turning', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader that never reads: the pipe fills (64 KiB on Linux) and then answers EAGAIN.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const destination = open(fifo, { ...HELD, exitTimeoutMs: 200 });
      fill(destination, MiB);
      let ticks = 0;
      const ticker = setInterval(() => {
        ticks += 1;
      }, 10);
      const started = performance.now();
      await assert.rejects(destination.flush(), { code: 'ETIMEDOUT' });
      clearInterval(ticker);
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 150 && elapsed < 2000, `${elapsed} ms`);
      assert.ok(ticks >= 5, `the event loop turned ${ticks} times while waiting`);
      assert.ok(destination.stats().held > 0, 'what the pipe did not take is still held');
      // Nobody will ever read it: end() waits exitTimeoutMs, then drops and counts the rest.
      destination.end();
      assert.equal(destination.stats().held, 0);
      assert.ok(destination.stats().dropped > 0);
      assert.ok(destination.stats().written > 0, 'what fit in the pipe was written');
    } finally {
      closeSync(reader);
    }
  });

  test('flushSync() writes what is held before it returns', () => {
    const file = join(dir, 'sync.log');
    const destination = open(file, HELD);
    fill(destination, 1000);
    destination.flushSync();
    assert.equal(readFileSync(file, 'utf8').length, 1000);
  });
});
