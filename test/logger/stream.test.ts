// Where lines go: process.stdout by default, any object with `write`, object-mode streams,
// and one stream per installation.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { captureLines, frameworks, send, startServer } from '../helpers/index.js';
import { runFixture } from '../helpers/logger.js';

describe('stream option', () => {
  it('defaults to process.stdout', async () => {
    const result = await runFixture('serve-once.ts', { args: [':method :url :status', '', '/a'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'GET /a 200\n');
  });

  it('accepts any object with a write method', async () => {
    const written: unknown[] = [];
    const server = await startServer({
      middleware: [logger(':method', { stream: { write: (line: string) => written.push(line) } })],
    });
    try {
      await send(server);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written, ['GET\n']);
    } finally {
      await server.close();
    }
  });

  it('an object-mode stream receives the object a format function returns', async () => {
    const written: unknown[] = [];
    const stream = new Writable({
      objectMode: true,
      write(chunk, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    const server = await startServer({
      middleware: [
        logger(
          (tokens, req, res) => ({ method: tokens.method(req, res), status: res.statusCode }),
          {
            stream,
          },
        ),
      ],
    });
    try {
      await send(server);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written, [{ method: 'GET', status: 200 }]);
    } finally {
      await server.close();
    }
  });

  it('an object-mode stream receives strings with their newline', async () => {
    const written: unknown[] = [];
    const stream = new Writable({
      objectMode: true,
      write(chunk, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    const server = await startServer({ middleware: [logger(':method', { stream })] });
    try {
      await send(server);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written, ['GET\n']);
    } finally {
      await server.close();
    }
  });

  for (const framework of frameworks) {
    it(`two installations write to their own streams (${framework})`, async () => {
      const all = captureLines();
      const errors = captureLines();
      const server = await startServer({
        framework,
        middleware: [
          logger(':method :url :status', { stream: all.stream }),
          logger('ERROR :url :status', {
            stream: errors.stream,
            skip: (_req, res) => res.statusCode < 400,
          }),
        ],
        handler: (req, res) => {
          res.statusCode = req.url === '/bad' ? 500 : 200;
          res.end();
        },
      });
      try {
        await send(server, { path: '/good' });
        await send(server, { path: '/bad' });
        await all.waitFor(2);
        await errors.waitFor(1);
        assert.deepEqual(all.lines, ['GET /good 200', 'GET /bad 500']);
        assert.deepEqual(errors.lines, ['ERROR /bad 500']);
      } finally {
        await server.close();
      }
    });
  }
});

describe('object-mode streams and JSON formats', () => {
  it('an object-mode stream receives the json object itself', async () => {
    const written: unknown[] = [];
    const stream = new Writable({
      objectMode: true,
      write(chunk, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    const server = await startServer({
      middleware: [
        logger(logger.json({ method: ':method', status: ':status', n: { u: ':url' } }), { stream }),
      ],
    });
    try {
      await send(server, { path: '/obj' });
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written, [{ method: 'GET', status: 200, n: { u: '/obj' } }]);
    } finally {
      await server.close();
    }
  });

  it('the json preset gives an object with the same fields as its line', async () => {
    const objects: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      objectMode: true,
      write(chunk, _encoding, callback) {
        objects.push(chunk);
        callback();
      },
    });
    const capture = captureLines();
    const server = await startServer({
      middleware: [logger('json', { stream }), logger('json', { stream: capture.stream })],
    });
    try {
      await send(server, { path: '/obj?token=x' });
      const [line] = await capture.waitFor(1);
      const fromLine = JSON.parse(line as string);
      const [object] = objects;
      assert.deepEqual(Object.keys(object ?? {}), Object.keys(fromLine));
      assert.equal(object?.['url.query'], 'token=REDACTED');
      assert.equal(typeof object?.duration_ms, 'number');
    } finally {
      await server.close();
    }
  });
});
