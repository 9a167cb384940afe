// Each predefined format's exact line, on a frozen clock, in every framework.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { exactLinesEachTest, loggedServer, fullRequest as request } from '../helpers/logger.js';

exactLinesEachTest();

const expected = {
  combined:
    '127.0.0.1 - tobi [10/Oct/2000:13:55:36 +0000] "GET /path?q=1 HTTP/1.1" 200 2 "http://example.com/" "test-agent/1.0"',
  common: '127.0.0.1 - tobi [10/Oct/2000:13:55:36 +0000] "GET /path?q=1 HTTP/1.1" 200 2',
  dev: '\x1b[0mGET /path?q=1 \x1b[32m200\x1b[0m 1.500 ms - 2\x1b[0m',
  short: '127.0.0.1 tobi GET /path?q=1 HTTP/1.1 200 2 - 1.500 ms',
  tiny: 'GET /path?q=1 200 2 - 1.500 ms',
} as const;

for (const framework of frameworks) {
  describe(`predefined formats in ${framework}`, () => {
    for (const [name, line] of Object.entries(expected)) {
      it(`"${name}" writes its exact line`, async () => {
        const server = await loggedServer((stream) => logger(name, { stream }), { framework });
        try {
          await send(server, request);
          assert.deepEqual(await server.capture.waitFor(1), [line]);
        } finally {
          await server.close();
        }
      });
    }
  });
}

describe('predefined formats with missing values', () => {
  it('"combined" writes - for every value a bare request lacks', async () => {
    const server = await loggedServer((stream) => logger('combined', { stream }), {
      handler: (_req, res) => {
        res.statusCode = 204;
        res.end();
      },
    });
    try {
      await send(server, { method: 'DELETE', path: '/x' });
      assert.deepEqual(await server.capture.waitFor(1), [
        '127.0.0.1 - - [10/Oct/2000:13:55:36 +0000] "DELETE /x HTTP/1.1" 204 - "-" "-"',
      ]);
    } finally {
      await server.close();
    }
  });

  it('there is no "default" format: the word is an ordinary format string', async () => {
    const server = await loggedServer((stream) => logger('default', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['default']);
    } finally {
      await server.close();
    }
  });
});
