// morgan's deprecated `buffer` option: lines are batched into one write, `buffer` ms (1000 for
// `true`) after the first line of a batch; 0 or false means no buffering.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { send, startServer } from '../helpers/index.js';
import { captureWarnings } from '../helpers/warnings.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const warnings = captureWarnings();

async function writesFor(
  buffer: unknown,
  paths: readonly string[],
  waitMs: number,
  stream?: { write(chunk: string): unknown },
): Promise<{ written: string[]; atOnce: string[] }> {
  const written: string[] = [];
  const server = await startServer({
    middleware: [
      logger(':method :url', {
        stream: stream ?? { write: (chunk: string) => written.push(chunk) },
        buffer,
      } as never),
    ],
  });
  try {
    for (const path of paths) await send(server, { path });
    await new Promise((resolve) => setImmediate(resolve));
    const atOnce = [...written];
    await sleep(waitMs);
    return { written, atOnce };
  } finally {
    await server.close();
  }
}

describe('buffer option (deprecated, as in morgan)', () => {
  it('a number batches the lines into one write after that many milliseconds', async () => {
    const { written, atOnce } = await writesFor(150, ['/first', '/second'], 400);
    assert.deepEqual(atOnce, []);
    assert.deepEqual(written, ['GET /first\nGET /second\n']);
    // The first logger with `buffer` in this process says it is deprecated, once.
    const deprecations = warnings
      .all()
      .filter((warning) => warning.code === 'HTTPWARE_LOGGER_BUFFER');
    assert.equal(deprecations.length, 1);
    assert.equal(deprecations[0]?.name, 'DeprecationWarning');
  });

  it('true batches with the default interval of one second', async () => {
    const { written, atOnce } = await writesFor(true, ['/a', '/b'], 1300);
    assert.deepEqual(atOnce, []);
    assert.deepEqual(written, ['GET /a\nGET /b\n']);
  });

  it('a new batch starts after a flush', async () => {
    const written: string[] = [];
    const server = await startServer({
      middleware: [
        logger(':url', { stream: { write: (chunk: string) => written.push(chunk) }, buffer: 80 }),
      ],
    });
    try {
      await send(server, { path: '/1' });
      await sleep(250);
      await send(server, { path: '/2' });
      await send(server, { path: '/3' });
      await sleep(250);
      assert.deepEqual(written, ['/1\n', '/2\n/3\n']);
    } finally {
      await server.close();
    }
  });

  it('0 and false write each line at once', async () => {
    for (const buffer of [0, false]) {
      const { atOnce } = await writesFor(buffer, ['/x'], 0);
      assert.deepEqual(atOnce, ['GET /x\n'], String(buffer));
    }
  });

  it('a stream that throws on flush loses the batch and does not crash the server', async () => {
    const throwing = {
      write() {
        throw new Error('disk full');
      },
    };
    const { written } = await writesFor(50, ['/x'], 200, throwing);
    assert.deepEqual(written, []);
    const codes = warnings.all().map((warning) => warning.code);
    assert.ok(codes.includes('HTTPWARE_LOGGER_STREAM'), JSON.stringify(codes));
  });
});
