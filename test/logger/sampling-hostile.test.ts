// What a client controls of `sample`: the trace id it sends (`traceparent`). A forged trace id
// may choose whether the client's own successful requests are sampled in (its sampled flag
// alone chooses nothing where no span decides), never that a failure or a slow request is
// dropped, and `traceId: false` takes even that away.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

/** A trace id whose randomness is 0: dropped at any rate below 1. */
const ALWAYS_OUT = '00-0123456789abcdef0000000000000000-0000000000000001-01';
/** A trace id whose randomness is the highest: kept at any rate above 0. */
const ALWAYS_IN = '00-0123456789abcdefffffffffffffffff-0000000000000001-01';

describe('sampling under forged trace ids', () => {
  it('a trace id chosen to be dropped does not drop a failure', async () => {
    const server = await loggedServer((stream) => logger(':status', { stream, sample: 0.5 }), {
      handler: (_req, res) => {
        res.statusCode = 500;
        res.end();
      },
    });
    try {
      await send(server, { headers: { traceparent: ALWAYS_OUT } });
      assert.deepEqual(await server.capture.waitFor(1), ['500']);
    } finally {
      await server.close();
    }
  });

  it("without a span, a traceparent's sampled flag decides nothing: its trace id does", async () => {
    const server = await loggedServer((stream) => logger(':url', { stream, sample: 0.5 }));
    try {
      // Flagged sampled, but the id is below the threshold; then flagged not sampled, above it.
      await send(server, { path: '/flagged-in', headers: { traceparent: ALWAYS_OUT } });
      await send(server, {
        path: '/flagged-out',
        headers: { traceparent: `${ALWAYS_IN.slice(0, -2)}00` },
      });
      assert.deepEqual(await server.capture.waitFor(1), ['/flagged-out']);
      await send(server, { path: '/last', headers: { traceparent: ALWAYS_IN } });
      assert.deepEqual(await server.capture.waitFor(2), ['/flagged-out', '/last']);
    } finally {
      await server.close();
    }
  });

  it('with traceId: false, a trace id chosen to be kept keeps no more than the rate', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', { stream, sample: { rate: 0.1, traceId: false } }),
    );
    try {
      for (let i = 0; i < 400; i++) {
        await send(server, { path: `/${i}`, headers: { traceparent: ALWAYS_IN } });
      }
      await send(server, { path: '/last', headers: { traceparent: ALWAYS_IN } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // 40 expected (standard deviation 6); all 400 if the forged id decided.
      const kept = server.capture.lines.length;
      assert.ok(kept < 80, `kept ${kept} of 400`);
    } finally {
      await server.close();
    }
  });

  it('a malformed traceparent is no trace id: such requests are sampled at random', async () => {
    const server = await loggedServer((stream) => logger(':url', { stream, sample: 0.5 }));
    try {
      // Upper-case hex is no W3C trace id: read as one, this id would drop every request.
      for (let i = 0; i < 40; i++) {
        await send(server, { path: `/${i}`, headers: { traceparent: ALWAYS_OUT.toUpperCase() } });
      }
      await send(server, { path: '/last', headers: { traceparent: ALWAYS_IN } });
      const lines = await server.capture.waitFor(2);
      // About 20 of the 40; none at all has a chance of 2^-40.
      assert.ok(lines.length > 1, `kept ${lines.length - 1} of 40`);
    } finally {
      await server.close();
    }
  });
});
