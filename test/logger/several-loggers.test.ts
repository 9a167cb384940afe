// Several loggers installed on one app see the same request. They keep one record of its
// arrival, and the logger reached last sets the start time for all of them (as in morgan), so
// every line reports the same :response-time.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setClock } from '../../src/logger/core/timing.js';
import { logger } from '../../src/logger/index.js';
import { captureLines, type Middleware, send, startServer } from '../helpers/index.js';

let restoreClock: (() => number) | null = null;
afterEach(() => {
  if (restoreClock !== null) setClock(restoreClock);
  restoreClock = null;
});

describe('two loggers on one request', () => {
  it('agree on the later start: both time the response from the second logger', async () => {
    // A clock the test moves by hand: 0 at the first logger, 100 at the second, 130 at the head.
    let clock = 0;
    restoreClock = setClock(() => clock);
    const first = captureLines();
    const second = captureLines();
    const advance =
      (to: number): Middleware =>
      (_req, _res, next) => {
        clock = to;
        next();
      };
    const server = await startServer({
      middleware: [
        logger(':response-time[0]', { stream: first.stream }),
        advance(100),
        logger(':response-time[0]', { stream: second.stream }),
        advance(130),
      ],
      handler: (_req, res) => res.end('ok'),
    });
    try {
      await send(server);
      assert.deepEqual(await first.waitFor(1), ['30']);
      assert.deepEqual(await second.waitFor(1), ['30']);
    } finally {
      await server.close();
    }
  });
});

describe('many loggers on one response', () => {
  it('add one close listener between them, as morgan adds one through on-finished', async () => {
    // Eleven loggers: one listener each would pass Node's default limit of ten and print a
    // MaxListenersExceededWarning for every request.
    const captures = Array.from({ length: 11 }, () => captureLines());
    let added = -1;
    const server = await startServer({
      middleware: [
        (_req, res, next) => {
          const before = res.listenerCount('close');
          next();
          added = res.listenerCount('close') - before;
        },
        ...captures.map((capture) => logger(':url :status', { stream: capture.stream })),
      ],
      handler: (_req, res) => res.end('ok'),
    });
    try {
      await send(server, { path: '/many' });
      for (const capture of captures) assert.deepEqual(await capture.waitFor(1), ['/many 200']);
      assert.equal(added, 1);
    } finally {
      await server.close();
    }
  });
});
