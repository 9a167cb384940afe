// Format functions: (tokens, req, res) -> line, or null/undefined to skip; tokens reach every
// defined token by name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`format functions in ${framework}`, () => {
    it('write the line they return', async () => {
      const server = await loggedServer(
        (stream) =>
          logger(
            (tokens, req, res) =>
              [tokens.method(req, res), tokens.url(req, res), tokens.status(req, res)].join(' '),
            { stream },
          ),
        { framework },
      );
      try {
        await send(server, { path: '/fn' });
        assert.deepEqual(await server.capture.waitFor(1), ['GET /fn 200']);
      } finally {
        await server.close();
      }
    });

    it('skip the request by returning null or undefined', async () => {
      const server = await loggedServer(
        (stream) =>
          logger(
            (_tokens, req) => {
              if (req.url === '/null') return null;
              if (req.url === '/undefined') return undefined;
              return req.url;
            },
            { stream },
          ),
        { framework },
      );
      try {
        await send(server, { path: '/null' });
        await send(server, { path: '/undefined' });
        await send(server, { path: '/kept' });
        assert.deepEqual(await server.capture.waitFor(1), ['/kept']);
      } finally {
        await server.close();
      }
    });

    it('pass token arguments as the third parameter', async () => {
      const server = await loggedServer(
        (stream) =>
          logger(
            (tokens, req, res) =>
              `${tokens.req(req, res, 'x-id')} ${tokens.res(req, res, 'content-length')}`,
            { stream },
          ),
        { framework },
      );
      try {
        await send(server, { headers: { 'x-id': 'r1' } });
        assert.deepEqual(await server.capture.waitFor(1), ['r1 2']);
      } finally {
        await server.close();
      }
    });

    it('receive escaped token values', async () => {
      const server = await loggedServer(
        (stream) => logger((tokens, req, res) => `[${tokens['user-agent'](req, res)}]`, { stream }),
        { framework },
      );
      try {
        await send(server, { headers: { 'user-agent': 'a"b' } });
        assert.deepEqual(await server.capture.waitFor(1), ['[a\\"b]']);
      } finally {
        await server.close();
      }
    });
  });
}

describe('format function values', () => {
  it('an empty string is written as an empty line', async () => {
    const server = await loggedServer((stream) => logger(() => '', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['']);
    } finally {
      await server.close();
    }
  });

  it('the tokens object is read-only: no unescaped token can be slipped in', async () => {
    let seen: Record<string, unknown> | undefined;
    const server = await loggedServer((stream) =>
      logger(
        (tokens) => {
          seen = tokens as Record<string, unknown>;
          return 'x';
        },
        { stream },
      ),
    );
    try {
      await send(server);
      await server.capture.waitFor(1);
      assert.ok(seen);
      const tokens = seen;
      assert.throws(() => {
        tokens.method = () => 'forged';
      }, TypeError);
      assert.equal(typeof tokens.method, 'function');
    } finally {
      await server.close();
    }
  });
});
