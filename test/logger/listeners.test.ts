// The logger's one 'close' listener on a response: added once, and it writes one line however
// often 'close' is emitted. It is left on the finished response (see whenDone in
// src/logger/index.ts: removing it cost about 1,000 instructions per request).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { logger } from '../../src/logger/index.js';
import { captureLines, type Middleware, send, startServer } from '../helpers/index.js';

describe('listeners of the logger', () => {
  it('is one close listener added to the response', async () => {
    const capture = captureLines();
    let added = -1;
    const count: Middleware = (_req, res, next) => {
      const before = res.listenerCount('close');
      next();
      added = res.listenerCount('close') - before;
    };
    const server = await startServer({
      middleware: [count, logger(':status', { stream: capture.stream })],
    });
    try {
      await send(server);
      await capture.waitFor(1);
      assert.equal(added, 1);
    } finally {
      await server.close();
    }
  });

  it('writes one line when the response emits close again', async () => {
    const capture = captureLines();
    let emittedAgain: Promise<void> = Promise.resolve();
    const emitTwice: Middleware = (_req, res, next) => {
      res.once('close', () => {
        // After the logger's listener ran (it was added after this one): a second 'close'.
        emittedAgain = nextTurn().then(() => {
          res.emit('close');
        });
      });
      next();
    };
    const server = await startServer({
      middleware: [emitTwice, logger(':url :status', { stream: capture.stream })],
    });
    try {
      await send(server, { path: '/twice' });
      await capture.waitFor(1);
      await emittedAgain;
      await nextTurn();
      assert.deepEqual(capture.lines, ['/twice 200']);
    } finally {
      await server.close();
    }
  });
});
