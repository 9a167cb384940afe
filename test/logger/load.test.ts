import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hostileSetup, lastJson, runChild } from '../helpers/hostile.js';
import { startServer } from '../helpers/index.js';

const hostile = hostileSetup();

// The logger under load: every request gives exactly one intact line, none torn or lost,
// from one process or four cluster workers sharing a file; and `immediate` lines reach the
// stream before a crash that follows the request's arrival.

let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'httpware-load-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const REQUESTS = 10_000;

describe('10,000 requests logged to a file', () => {
  test('give exactly one intact line each over keep-alive (its time is measured by the soak)', async () => {
    const file = join(dir, 'single.log');
    const stream = createWriteStream(file, { flags: 'a' });
    const server = await startServer({
      middleware: [hostile.subject.logger(':method :url :status', { stream })],
      handler: (_req, res) => res.end('ok'),
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      let next = 0;
      const worker = async () => {
        while (next < REQUESTS) {
          const id = next++;
          await new Promise<void>((resolve, reject) => {
            http
              .get({ port: server.port, host: '127.0.0.1', path: `/n/${id}`, agent }, (res) => {
                res.resume();
                res.on('end', resolve);
              })
              .on('error', reject);
          });
        }
      };
      await Promise.all(Array.from({ length: 32 }, worker));
    } finally {
      agent.destroy();
      await server.close();
    }
    stream.end();
    await once(stream, 'close');
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.equal(lines.length, REQUESTS);
    const ids = new Set<number>();
    for (const line of lines) {
      const m = /^GET \/n\/(\d+) 200$/.exec(line);
      assert.ok(m, `torn line: ${JSON.stringify(line)}`);
      ids.add(Number(m[1]));
    }
    assert.equal(ids.size, REQUESTS, 'one line per request, none lost or doubled');
  });
});

describe('four cluster workers appending to one file', () => {
  test('10,000 requests give 10,000 intact lines, none torn or lost, from all four workers', async () => {
    const file = join(dir, 'cluster.log');
    const result = await runChild(new URL('./fixtures/cluster.ts', import.meta.url), {
      args: [file, String(REQUESTS)],
      timeoutMs: 90_000,
    });
    assert.equal(result.code, 0, result.stderr.slice(-3000));
    const r = lastJson<{
      served: number;
      lines: number;
      unique: number;
      torn: number;
      trailing: string;
      pids: number;
    }>(result);
    assert.equal(r.served, REQUESTS);
    assert.equal(r.torn, 0, 'torn or interleaved lines');
    assert.equal(r.lines, REQUESTS);
    assert.equal(r.unique, REQUESTS, 'one line per request');
    assert.equal(r.trailing, '', 'the file ends with a newline');
    assert.equal(r.pids, 4, 'every worker logged');
  });
});

describe('immediate lines survive a crash right after the request arrives', () => {
  /** Starts fixtures/crash.ts with stdout going to `stdout`, sends one request, waits for the crash. */
  async function crashWith(stdout: 'pipe' | number): Promise<{ code: number | null; out: string }> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./fixtures/crash.ts', import.meta.url).pathname],
      { stdio: ['ignore', stdout, 'pipe'] },
    );
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    let err = '';
    const stderr = child.stderr!;
    stderr.setEncoding('utf8');
    while (!/port (\d+)/.test(err)) {
      const [chunk] = (await once(stderr, 'data')) as [string];
      err += chunk;
    }
    const port = Number(/port (\d+)/.exec(err)?.[1]);
    stderr.resume();
    const exited = once(child, 'exit');
    http.get({ port, host: '127.0.0.1', path: '/crash?x=1' }).on('error', () => {});
    const [code] = (await exited) as [number | null];
    return { code, out };
  }

  test('to a file (stdout redirected): the line is there after the process died', async () => {
    const file = join(dir, 'crash.log');
    const fd = openSync(file, 'w');
    try {
      const { code } = await crashWith(fd);
      assert.notEqual(code, 0, 'the process crashed');
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(file, 'utf8'), 'GET /crash?x=1 immediate\n');
  });

  test('to a pipe: the line is there after the process died', async () => {
    const { code, out } = await crashWith('pipe');
    assert.notEqual(code, 0, 'the process crashed');
    assert.equal(out, 'GET /crash?x=1 immediate\n');
  });
});
