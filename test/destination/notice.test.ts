// Past maxBytes, lines are dropped, counted and warned once, and a line in the log says how
// many were dropped between which times, in the shape of the log's lines: a JSON log gets a
// JSON line (the `json` preset's fields, or the `ecs` preset's), a text log a text line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { destinations, tempDir } from '../helpers/destination.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();
const dir = tempDir();

const open = destinations();

/** 10 lines of 100 characters into a destination holding 500: 5 written, 5 dropped. */
async function overflow(name: string, line: (i: number) => string): Promise<string[]> {
  const file = join(dir, `${name}.log`);
  const destination = open(file, { maxBytes: 500, batchMs: 60_000 });
  for (let i = 0; i < 10; i += 1) destination.write(`${line(i).padEnd(99, ' ')}\n`);
  assert.deepEqual(destination.stats().dropped, 5);
  await destination.flush();
  assert.deepEqual(destination.stats().written, 5);
  return readFileSync(file, 'utf8').trimEnd().split('\n');
}

describe('lines over maxBytes', () => {
  test('a text log: the notice is a text line after the lines written, with the count and the times', async () => {
    const lines = await overflow('text', (i) => `GET /n/${i} 200`);
    assert.equal(lines.length, 6);
    assert.match(
      lines[5] ?? '',
      /^httpware: 5 log lines dropped between \d{4}-\d\d-\d\dT[\d:.]+Z and \d{4}-\d\d-\d\dT[\d:.]+Z \(maxBytes\)$/,
    );
    const warned = await warnings.of('HTTPWARE_LOGGER_DROPPED');
    assert.equal(warned.length, 1, 'warned once for all five');
  });

  test('a JSON log: the notice is a JSON line with time, level, msg and the dropped count and times', async () => {
    const lines = await overflow('json', (i) => JSON.stringify({ time: 't', level: 'info', i }));
    const notice = JSON.parse(lines[5] ?? '') as Record<string, unknown>;
    assert.equal(notice.level, 'warn');
    assert.match(String(notice.msg), /^httpware: 5 log lines dropped/);
    assert.equal(typeof notice.time, 'string');
    assert.deepEqual((notice.dropped as { lines: number }).lines, 5);
    await warnings.of('HTTPWARE_LOGGER_DROPPED');
  });

  test('an ECS log: the notice has @timestamp, log.level and message first', async () => {
    const lines = await overflow('ecs', (i) =>
      JSON.stringify({ '@timestamp': 't', 'log.level': 'info', message: String(i) }),
    );
    const notice = JSON.parse(lines[5] ?? '') as Record<string, unknown>;
    assert.deepEqual(Object.keys(notice).slice(0, 3), ['@timestamp', 'log.level', 'message']);
    assert.equal((notice['httpware.dropped'] as { lines: number }).lines, 5);
    await warnings.of('HTTPWARE_LOGGER_DROPPED');
  });

  test('a line accepted after the drops comes after the notice, where the dropped lines were', async () => {
    const file = join(dir, 'between.log');
    const destination = open(file, { maxBytes: 300, batchMs: 60_000 });
    const line = (name: string) => `${name.padEnd(99, '.')}\n`;
    for (const name of ['a', 'b', 'c', 'dropped-1', 'dropped-2']) destination.write(line(name));
    await destination.flush();
    destination.write(line('d'));
    await destination.flush();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => l.replace(/\.+$/, '').replace(/between .*/, '')),
      ['a', 'b', 'c', 'httpware: 2 log lines dropped ', 'd'],
    );
    await warnings.of('HTTPWARE_LOGGER_DROPPED');
  });
});
