// What a failing custom token, format function, skip function or stream does: never take the
// server down; the server keeps serving; one process warning says what happened.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { logger } from '../../src/logger/index.js';
import { send, startServer } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

/** Our warnings of that code, after the pending ones were delivered. */
async function warningsOf(code: string): Promise<Array<Error & { code?: string }>> {
  return (await warnings.of(code)).filter((w) => w.name === 'HttpwareLoggerWarning');
}

describe('a custom token that throws', () => {
  it('is written as -, the server keeps serving, one warning is emitted', async () => {
    logger.token('test-throws', () => {
      throw new Error('token exploded');
    });
    const server = await loggedServer((stream) => logger(':url :test-throws', { stream }));
    try {
      const first = await send(server, { path: '/1' });
      const second = await send(server, { path: '/2' });
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.deepEqual(await server.capture.waitFor(2), ['/1 -', '/2 -']);
      const emitted = await warningsOf('HTTPWARE_LOGGER_TOKEN');
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /test-throws.*token exploded/);
    } finally {
      await server.close();
    }
  });

  it('gives undefined to a format function that calls it', async () => {
    logger.token('test-throws-2', () => {
      throw new Error('again');
    });
    const server = await loggedServer((stream) =>
      logger((tokens, req, res) => `value=${tokens['test-throws-2']?.(req, res)}`, { stream }),
    );
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['value=undefined']);
    } finally {
      await server.close();
    }
  });
});

describe('an unknown token in a format string', () => {
  it('is written as - with one warning naming it', async () => {
    const server = await loggedServer((stream) => logger(':method :no-such-token', { stream }));
    try {
      await send(server);
      await send(server);
      assert.deepEqual(await server.capture.waitFor(2), ['GET -', 'GET -']);
      const emitted = await warningsOf('HTTPWARE_LOGGER_UNKNOWN_TOKEN');
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /:no-such-token/);
    } finally {
      await server.close();
    }
  });
});

describe('a format function that throws', () => {
  it('skips the line, the server keeps serving, one warning is emitted', async () => {
    const server = await loggedServer((stream) =>
      logger(
        (_tokens, req) => {
          if (req.url === '/boom') throw new Error('format exploded');
          return req.url;
        },
        { stream },
      ),
    );
    try {
      assert.equal((await send(server, { path: '/boom' })).status, 200);
      assert.equal((await send(server, { path: '/boom' })).status, 200);
      assert.equal((await send(server, { path: '/fine' })).status, 200);
      assert.deepEqual(await server.capture.waitFor(1), ['/fine']);
      const emitted = await warningsOf('HTTPWARE_LOGGER_FORMAT');
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /format exploded/);
    } finally {
      await server.close();
    }
  });

  it('with immediate, the request still reaches the handler', async () => {
    const server = await loggedServer((stream) =>
      logger(
        () => {
          throw new Error('early');
        },
        { stream, immediate: true },
      ),
    );
    try {
      const reply = await send(server);
      assert.equal(reply.status, 200);
      assert.equal(reply.text, 'ok');
    } finally {
      await server.close();
    }
  });
});

describe('a skip function that throws', () => {
  it('logs the request anyway, with one warning', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        skip: () => {
          throw new Error('skip exploded');
        },
      }),
    );
    try {
      await send(server, { path: '/a' });
      await send(server, { path: '/b' });
      assert.deepEqual(await server.capture.waitFor(2), ['/a', '/b']);
      assert.equal((await warningsOf('HTTPWARE_LOGGER_SKIP')).length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('a stream that fails', () => {
  it('whose write throws: the server keeps serving, one warning', async () => {
    const stream = {
      write() {
        throw new Error('disk full');
      },
    };
    const server = await startServer({ middleware: [logger(':url', { stream })] });
    try {
      assert.equal((await send(server)).status, 200);
      assert.equal((await send(server)).status, 200);
      const emitted = await warningsOf('HTTPWARE_LOGGER_STREAM');
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /disk full/);
    } finally {
      await server.close();
    }
  });

  it('that emits error: the process survives, the server keeps serving, one warning', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('EPIPE-like failure'));
      },
    });
    const server = await startServer({ middleware: [logger(':url', { stream })] });
    try {
      assert.equal((await send(server)).status, 200);
      await delay(10);
      assert.equal((await send(server)).status, 200);
      const emitted = await warningsOf('HTTPWARE_LOGGER_STREAM');
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /EPIPE-like failure/);
    } finally {
      await server.close();
    }
  });

  it('stays silent when the application listens for the stream’s errors itself', async () => {
    const seen: unknown[] = [];
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('handled elsewhere'));
      },
    });
    stream.on('error', (err) => seen.push(err));
    const server = await startServer({ middleware: [logger(':url', { stream })] });
    try {
      await send(server);
      await delay(10);
      assert.equal(seen.length, 1);
      assert.equal((await warningsOf('HTTPWARE_LOGGER_STREAM')).length, 0);
    } finally {
      await server.close();
    }
  });

  it('many loggers on one stream add one error listener', () => {
    const stream = new Writable({ write: (_c, _e, cb) => cb() });
    for (let i = 0; i < 20; i++) logger(':url', { stream });
    assert.equal(stream.listenerCount('error'), 1);
  });
});
