// Log-line forgery: whatever a client or a custom token puts in a value, the line stays one
// line, quotes stay balanced, and terminal escapes are inert. Format literals are untouched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, type Middleware, rawHead, send, sendRaw } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

for (const framework of frameworks) {
  describe(`escaping in ${framework}`, () => {
    it('a URL with quotes and backslashes cannot close the quoted request field', async () => {
      const server = await loggedServer((stream) => logger('":method :url"', { stream }), {
        framework,
      });
      try {
        await sendRaw(server, [rawHead('GET', '/a"b\\c', { connection: 'close' })]);
        assert.deepEqual(await server.capture.waitFor(1), ['"GET /a\\"b\\\\c"']);
      } finally {
        await server.close();
      }
    });

    it('a URL rewritten to hold CR, LF, ESC and U+2028 stays on one line', async () => {
      // Stands for an application that decodes its URL before the logger sees it.
      const decode: Middleware = (req, _res, next) => {
        req.url = '/x\r\n127.0.0.1 - admin [forged]\x1b[2J\u2028\u2029\x7f\x9b';
        if ('originalUrl' in req) (req as { originalUrl: string }).originalUrl = req.url;
        next();
      };
      const server = await loggedServer((stream) => logger(':url', { stream }), {
        framework,
        before: [decode],
      });
      try {
        await send(server);
        const lines = await server.capture.waitFor(1);
        assert.deepEqual(lines, [
          '/x\\r\\n127.0.0.1 - admin [forged]\\u001b[2J\\u2028\\u2029\\u007f\\u009b',
        ]);
      } finally {
        await server.close();
      }
    });

    it('header bytes in the C1 range and tabs are escaped', async () => {
      const server = await loggedServer((stream) => logger('":user-agent"', { stream }), {
        framework,
      });
      try {
        await sendRaw(server, [
          Buffer.from(
            rawHead('GET', '/', { 'user-agent': 'ua"\t\x85\x9b', connection: 'close' }),
            'latin1',
          ),
        ]);
        assert.deepEqual(await server.capture.waitFor(1), ['"ua\\"\\t\\u0085\\u009b"']);
      } finally {
        await server.close();
      }
    });

    it('a Basic-auth user with a newline cannot forge a second line', async () => {
      const server = await loggedServer((stream) => logger(':remote-user :url', { stream }), {
        framework,
      });
      try {
        await send(server, {
          path: '/real',
          headers: { authorization: basic('eve\n127.0.0.1 - admin GET /forged:pw') },
        });
        assert.deepEqual(await server.capture.waitFor(1), [
          'eve\\n127.0.0.1 - admin GET /forged /real',
        ]);
      } finally {
        await server.close();
      }
    });
  });
}

describe('escaping rule', () => {
  it('applies to custom tokens, in format strings and in format functions', async () => {
    logger.token('test-evil', () => 'a\nb"c\\d\x00\u2028');
    const server = await loggedServer((stream) =>
      logger((tokens, req, res) => `${tokens['test-evil']?.(req, res)}|`, { stream }),
    );
    const compiled = await loggedServer((stream) => logger(':test-evil|', { stream }));
    try {
      await send(server);
      await send(compiled);
      const expected = ['a\\nb\\"c\\\\d\\u0000\\u2028|'];
      assert.deepEqual(await server.capture.waitFor(1), expected);
      assert.deepEqual(await compiled.capture.waitFor(1), expected);
    } finally {
      await server.close();
      await compiled.close();
    }
  });

  it('leaves format literals and non-string values untouched', async () => {
    logger.token('test-object', () => 7);
    const server = await loggedServer((stream) => logger('"\t\\:test-object\x1b[0m', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['"\t\\7\x1b[0m']);
    } finally {
      await server.close();
    }
  });

  it('leaves ordinary non-ASCII text as it is', async () => {
    logger.token('test-unicode', () => 'é中😀\u00a0');
    const server = await loggedServer((stream) => logger(':test-unicode', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['é中😀\u00a0']);
    } finally {
      await server.close();
    }
  });
});
