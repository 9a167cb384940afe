// The logger leaves no listener behind on the response once its line is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { captureLines, type Middleware, send, startServer } from '../helpers/index.js';

describe('listeners of the logger', () => {
  it('are removed from the response once the line is written', async () => {
    const capture = captureLines();
    let before = -1;
    const counted: Promise<number> = new Promise((resolve) => {
      const countBefore: Middleware = (_req, res, next) => {
        before = res.listenerCount('close');
        // Counted after the logger's own 'close' listener ran (it was added after this one).
        res.on('close', () => setImmediate(() => resolve(res.listenerCount('close'))));
        next();
      };
      void startServer({
        middleware: [countBefore, logger(':status', { stream: capture.stream })],
      }).then(async (server) => {
        try {
          await send(server);
          await capture.waitFor(1);
        } finally {
          await server.close();
        }
      });
    });
    // Node's own listeners and this test's: nothing of the logger's is left.
    assert.equal(await counted, before + 1);
  });
});
