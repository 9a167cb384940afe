import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { hostileSetup } from '../helpers/hostile.js';
import { captureLines, send, startServer, type TestServer } from '../helpers/index.js';
import { captureWarnings } from '../helpers/warnings.js';

const hostile = hostileSetup();

// The logger under faults: whatever its stream, tokens or format do, the request is served,
// `next` runs once, and the process does not crash. The logger reports its own failures as
// process warnings; these tests silence them.

const warnings = captureWarnings();

/** Sends `count` requests (8 at a time); every one must be answered 200 with `next` once. */
async function serveAll(server: TestServer, count: number): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const reply = await send(server, { path: `/r${sent}` });
      assert.equal(reply.status, 200);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  for (let i = 0; i < count; i++) assert.equal((await server.nextOutcome()).nextCalls, 1);
}

describe('a slow stream (write returns false)', () => {
  test('responses are not held back, and every line arrives once the stream drains', async () => {
    const lines: string[] = [];
    let pending = '';
    const slow = new Writable({
      highWaterMark: 1,
      decodeStrings: false,
      write(chunk: string, _enc, callback) {
        setTimeout(() => {
          pending += chunk;
          const parts = pending.split('\n');
          pending = parts.pop() ?? '';
          lines.push(...parts);
          callback();
        }, 50);
      },
    });
    let falseReturns = 0;
    const write = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const ok = write(chunk);
      if (!ok) falseReturns++;
      return ok;
    }) as typeof slow.write;
    const server = await startServer({
      middleware: [hostile.subject.logger(':method :url :status', { stream: slow })],
    });
    try {
      await serveAll(server, 40);
      // The stream takes 50 ms a line, so writing the 40 lines takes 2 s of its own time: had
      // any response waited for its line, the lines would all be out by now.
      assert.ok(lines.length < 40, `${lines.length} lines written before the last response`);
      assert.ok(falseReturns > 0, 'the stream applied backpressure');
      const deadline = Date.now() + 5000;
      while (lines.length < 40 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(lines.length, 40);
      assert.equal(new Set(lines).size, 40, 'one intact line per request');
      for (const line of lines) assert.match(line, /^GET \/r\d+ 200$/);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });
});

describe('a stream that throws on write', () => {
  for (const immediate of [false, true]) {
    test(`immediate: ${immediate}: every request is served, next once, no crash`, async () => {
      const throwing = {
        write(): boolean {
          throw new Error('disk full');
        },
      };
      const server = await startServer({
        middleware: [hostile.subject.logger('tiny', { stream: throwing, immediate })],
      });
      try {
        await serveAll(server, 20);
        await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(hostile.uncaught.take(), []);
      } finally {
        await server.close();
      }
    });
  }
});

describe('a stream whose write returns a rejected promise (an async write that throws)', () => {
  for (const options of [{ immediate: false }, { immediate: true }, { buffer: 10 }]) {
    test(`${JSON.stringify(options)}: every request is served, no unhandled rejection, one warning`, async () => {
      let writes = 0;
      const asyncThrowing = {
        async write(): Promise<boolean> {
          writes++;
          throw new Error('down');
        },
      };
      const server = await startServer({
        middleware: [hostile.subject.logger('tiny', { stream: asyncThrowing, ...options })],
      });
      try {
        await serveAll(server, 10);
        await new Promise((r) => setTimeout(r, 50));
        assert.ok(writes > 0, 'the stream was written to');
        assert.deepEqual(hostile.uncaught.take(), []);
        const reported = await warnings.of('HTTPWARE_LOGGER_STREAM');
        assert.equal(reported.length, 1);
        assert.match(reported[0]?.message ?? '', /down/);
      } finally {
        await server.close();
      }
    });
  }
});

describe("a stream that emits 'error'", () => {
  test("a write that fails ('error' from the stream itself) crashes nothing and the server keeps serving", async () => {
    const failing = new Writable({
      write(_chunk, _enc, callback) {
        callback(new Error('EIO: i/o error, write'));
      },
    });
    const server = await startServer({
      middleware: [hostile.subject.logger('tiny', { stream: failing })],
    });
    try {
      await serveAll(server, 20);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test("an 'error' emitted between requests crashes nothing, and the application's own listener still hears it", async () => {
    const capture = captureLines();
    const heard: unknown[] = [];
    const server = await startServer({
      middleware: [hostile.subject.logger('tiny', { stream: capture.stream })],
    });
    try {
      await serveAll(server, 5);
      capture.stream.emit('error', new Error('rotated away'));
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(hostile.uncaught.take(), []);
      capture.stream.on('error', (err) => heard.push(err));
      capture.stream.emit('error', new Error('second'));
      assert.equal(heard.length, 1);
    } finally {
      await server.close();
    }
  });

  test('a destroyed stream (write after end) crashes nothing', async () => {
    const capture = captureLines();
    const server = await startServer({
      middleware: [hostile.subject.logger('tiny', { stream: capture.stream })],
    });
    try {
      await serveAll(server, 3);
      capture.stream.end();
      await serveAll(server, 5);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });
});

describe('a custom token or format that throws', () => {
  test('a throwing token is written as "-": one line per request, all served', async () => {
    hostile.subject.logger.token('hostile-throws', () => {
      throw new Error('token bug');
    });
    const capture = captureLines();
    const server = await startServer({
      middleware: [
        hostile.subject.logger(':method :url :hostile-throws', { stream: capture.stream }),
      ],
    });
    try {
      await serveAll(server, 10);
      const lines = await capture.waitFor(10);
      assert.equal(lines.length, 10);
      for (const line of lines) assert.match(line, /^GET \/r\d+ -$/);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test('a token returning a value whose conversion throws (a Symbol, a bad toString) crashes nothing', async () => {
    hostile.subject.logger.token('hostile-symbol', () => Symbol('s') as never);
    hostile.subject.logger.token(
      'hostile-tostring',
      () =>
        ({
          toString() {
            throw new Error('bad toString');
          },
        }) as never,
    );
    const capture = captureLines();
    const server = await startServer({
      middleware: [
        hostile.subject.logger(':method :hostile-symbol :hostile-tostring', {
          stream: capture.stream,
        }),
      ],
    });
    try {
      await serveAll(server, 5);
      await new Promise((r) => setTimeout(r, 20));
      assert.ok(capture.lines.length <= 5);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test('a throwing format function skips the line, serves every request, crashes nothing', async () => {
    const capture = captureLines();
    const server = await startServer({
      middleware: [
        hostile.subject.logger(
          () => {
            throw new Error('format bug');
          },
          { stream: capture.stream },
        ),
      ],
    });
    try {
      await serveAll(server, 10);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(capture.lines.length, 0);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test('a throwing format function with immediate serves every request and calls next once', async () => {
    const server = await startServer({
      middleware: [
        hostile.subject.logger(
          () => {
            throw new Error('format bug');
          },
          { immediate: true, stream: captureLines().stream },
        ),
      ],
    });
    try {
      await serveAll(server, 10);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test('a throwing skip function still logs, once per request', async () => {
    const capture = captureLines();
    const server = await startServer({
      middleware: [
        hostile.subject.logger(':method :url', {
          stream: capture.stream,
          skip: () => {
            throw new Error('skip bug');
          },
        }),
      ],
    });
    try {
      await serveAll(server, 10);
      const lines = await capture.waitFor(10);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(lines.length, 10);
      assert.deepEqual(hostile.uncaught.take(), []);
    } finally {
      await server.close();
    }
  });

  test('failures are reported as process warnings, not thrown', () => {
    assert.ok(warnings.total() > 0, 'at least one warning was emitted');
  });
});
