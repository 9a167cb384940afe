// `immediate`: the line is written when the request arrives, before any response.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer, runFixture } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`immediate in ${framework}`, () => {
    it('writes the line before the handler runs, without response data', async () => {
      let linesWhenHandled = -1;
      const server = await loggedServer(
        (stream) =>
          logger(':method :url :status :res[content-length]', { stream, immediate: true }),
        {
          framework,
          handler: (_req, res) => {
            linesWhenHandled = server.capture.lines.length;
            res.end('ok');
          },
        },
      );
      try {
        await send(server, { path: '/now' });
        assert.equal(linesWhenHandled, 1, 'the line existed when the handler ran');
        assert.deepEqual(server.capture.lines, ['GET /now - -']);
      } finally {
        await server.close();
      }
    });
  });
}

describe('immediate when the process crashes', () => {
  it('the line is on stdout even though the handler then crashes the process', async () => {
    const result = await runFixture('serve-once.ts', {
      args: [':method :url', 'immediate', '/crash'],
    });
    assert.notEqual(result.code, 0, 'the process crashed');
    assert.match(result.stderr, /the handler crashed/);
    assert.equal(result.stdout, 'GET /crash\n');
  });

  it('without immediate the same crash loses the line', async () => {
    const result = await runFixture('serve-once.ts', { args: [':method :url', '', '/crash'] });
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
  });
});
