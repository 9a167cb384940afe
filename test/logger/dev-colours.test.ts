// The dev format colours :status by class, and prints plain when NO_COLOR is non-empty.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { exactLinesEachTest, loggedServer, runFixture } from '../helpers/logger.js';

exactLinesEachTest();

async function devLine(status: number): Promise<string> {
  const server = await loggedServer((stream) => logger('dev', { stream }), {
    handler: (_req, res) => {
      res.statusCode = status;
      res.setHeader('content-length', '2');
      res.end('ok');
    },
  });
  try {
    await send(server, { path: '/c' });
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

const coloured = (sgr: number, status: number) =>
  `\x1b[0mGET /c \x1b[${sgr}m${status}\x1b[0m 1.500 ms - 2\x1b[0m`;

describe('dev colours', () => {
  it('2xx is green (32)', async () => {
    assert.equal(await devLine(201), coloured(32, 201));
  });

  it('3xx is cyan (36)', async () => {
    assert.equal(await devLine(302), coloured(36, 302));
  });

  it('4xx is yellow (33)', async () => {
    assert.equal(await devLine(404), coloured(33, 404));
  });

  it('5xx is red (31)', async () => {
    assert.equal(await devLine(500), coloured(31, 500));
  });

  it('no response (aborted) is uncoloured (0) with - for status and times', async () => {
    const server = await loggedServer((stream) => logger('dev', { stream }), {
      handler: (req) => req.socket.destroy(),
    });
    try {
      await send(server, { path: '/gone' }).catch(() => undefined);
      assert.deepEqual(await server.capture.waitFor(1), [
        '\x1b[0mGET /gone \x1b[0m-\x1b[0m - ms - -\x1b[0m',
      ]);
    } finally {
      await server.close();
    }
  });

  it('NO_COLOR=1 when the logger is created gives the plain line', async () => {
    process.env.NO_COLOR = '1';
    assert.equal(await devLine(500), 'GET /c 500 1.500 ms - 2');
  });

  it('an empty NO_COLOR still colours', async () => {
    process.env.NO_COLOR = '';
    assert.equal(await devLine(200), coloured(32, 200));
  });

  it('NO_COLOR in the environment of a fresh process gives the plain line', async () => {
    const result = await runFixture('serve-once.ts', {
      args: ['dev', '', '/fixture'],
      env: { NO_COLOR: 'true' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^GET \/fixture 200 \d+\.\d{3} ms - 2\n$/);
  });
});
