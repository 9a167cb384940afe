// `skip(req, res)`: a true result leaves the request out of the log.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`skip in ${framework}`, () => {
    it('on the response status: only errors are logged', async () => {
      const server = await loggedServer(
        (stream) => logger(':url :status', { stream, skip: (_req, res) => res.statusCode < 400 }),
        {
          framework,
          handler: (req, res) => {
            res.statusCode = Number(req.url?.slice(1));
            res.end();
          },
        },
      );
      try {
        for (const status of [200, 404, 301, 503]) await send(server, { path: `/${status}` });
        await server.capture.waitFor(2);
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.deepEqual(server.capture.lines, ['/404 404', '/503 503']);
      } finally {
        await server.close();
      }
    });

    it('on the request: a health check is not logged', async () => {
      const server = await loggedServer(
        (stream) => logger(':url', { stream, skip: (req) => req.url === '/health' }),
        { framework },
      );
      try {
        await send(server, { path: '/health' });
        await send(server, { path: '/work' });
        await server.capture.waitFor(1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.deepEqual(server.capture.lines, ['/work']);
      } finally {
        await server.close();
      }
    });
  });
}

describe('skip values', () => {
  it('false (the documented default) skips nothing', async () => {
    const server = await loggedServer((stream) => logger(':url', { stream, skip: false }));
    try {
      await send(server, { path: '/kept' });
      assert.deepEqual(await server.capture.waitFor(1), ['/kept']);
    } finally {
      await server.close();
    }
  });

  it('with immediate, skip sees the request before any response', async () => {
    const seen: Array<boolean> = [];
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        immediate: true,
        skip: (_req, res) => {
          seen.push(res.headersSent);
          return false;
        },
      }),
    );
    try {
      await send(server, { path: '/early' });
      assert.deepEqual(await server.capture.waitFor(1), ['/early']);
      assert.deepEqual(seen, [false]);
    } finally {
      await server.close();
    }
  });
});
