// A reader of the server's standard output that stops reading, as a stuck log shipper does:
// the server keeps answering, what it holds stays under `maxBytes` (plus a small margin), and
// every request is accounted for once the reader is back: its line is in the output, or a
// notice in the output counts it among the dropped ones.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { delay, get, idsOf, Load, startServer } from '../helpers/destination.js';

const MiB = 1024 * 1024;
const MAX_BYTES = 1 * MiB;
/** What the process may hold above the bound: the batch being converted, strings, garbage. */
const MARGIN = 6 * MiB;
/** Each line is a URL this long, so that the lines offered during the stall are many MiB. */
const LINE = 8 * 1024;
/** The reader stops until this much was offered (the 20 s, shortened by volume). */
const OFFERED = 2 * (MAX_BYTES + MARGIN);
const STALL_CAP_MS = 20_000;

interface Report {
  stats: { written: number; dropped: number; held: number; errors: number };
  memory: number;
}

async function report(port: number): Promise<Report> {
  return JSON.parse(await get(port, '/stats')) as Report;
}

describe('a stdout pipe whose reader stops', () => {
  test('the server answers, memory stays under maxBytes plus a margin, and lines written plus lines reported dropped equal the requests', async () => {
    const server = await startServer(
      '1',
      { maxBytes: MAX_BYTES },
      { stdout: 'pipe', nodeArgs: ['--expose-gc'] },
    );
    const stdout = server.child.stdout;
    assert.ok(stdout);
    let output = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });

    const load = new Load(server.port, 16, LINE);
    await load.until(100);
    const before = await report(server.port);

    stdout.pause();
    const stalledAt = load.sent;
    const started = Date.now();
    let peak = 0;
    while ((load.sent - stalledAt) * LINE < OFFERED && Date.now() - started < STALL_CAP_MS) {
      const asked = Date.now();
      const now = await report(server.port);
      assert.ok(Date.now() - asked < 2000, 'the server answered while the reader was stopped');
      peak = Math.max(peak, now.memory - before.memory);
      await delay(200);
    }
    const stalled = await report(server.port);
    await load.stop();
    const offered = (load.sent - stalledAt) * LINE;
    assert.ok(offered >= OFFERED, `enough was offered to pass the bound (${offered} bytes)`);
    assert.ok(stalled.stats.dropped > 0, 'lines were dropped past maxBytes');
    assert.ok(stalled.stats.held <= MAX_BYTES);
    assert.equal(stalled.stats.errors, 0, 'a full pipe is waited for, not a failure');
    assert.ok(peak < MAX_BYTES + MARGIN, `held in memory: ${peak} bytes above the start`);

    stdout.resume();
    let last = stalled;
    while (last.stats.held > 0) {
      await delay(50);
      last = await report(server.port);
    }
    const ended = once(stdout, 'end');
    server.child.kill('SIGTERM');
    await Promise.all([server.ended, ended]);

    const written = new Set(idsOf(output)).size;
    const reported = [...output.matchAll(/httpware: (\d+) log lines dropped between \S+ and \S+/g)]
      .map((match) => Number(match[1]))
      .reduce((a, b) => a + b, 0);
    assert.equal(written + reported, load.answered.length);
    assert.equal(reported, last.stats.dropped);
    assert.equal(written, last.stats.written);
  });
});
