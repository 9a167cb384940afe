// logger.token(name, fn): custom tokens with and without arguments, overwriting, chaining,
// and a registry separate from the formats.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { builtinTokens } from '../../src/logger/core/tokens.js';
import { logger } from '../../src/logger/index.js';
import type { TokenFn } from '../../src/logger/types.js';
import { frameworks, type Middleware, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

const ids = new WeakMap<object, string>();
const assignId: Middleware = (req, _res, next) => {
  ids.set(req, `req-${req.headers['x-n'] ?? '0'}`);
  next();
};
logger.token('test-id', (req) => ids.get(req));
logger.token('test-echo', (_req, _res, ...args) => `${args.length}:${args.join('|')}`);

for (const framework of frameworks) {
  describe(`custom tokens in ${framework}`, () => {
    it('a token set up by an earlier middleware is usable in a format string', async () => {
      const server = await loggedServer((stream) => logger(':test-id :method :url', { stream }), {
        framework,
        before: [assignId],
      });
      try {
        await send(server, { path: '/x', headers: { 'x-n': '7' } });
        assert.deepEqual(await server.capture.waitFor(1), ['req-7 GET /x']);
      } finally {
        await server.close();
      }
    });

    it('the bracket argument is passed as a string; none is passed without brackets', async () => {
      const server = await loggedServer(
        (stream) => logger(':test-echo[a b] :test-echo[] :test-echo', { stream }),
        { framework },
      );
      try {
        await send(server);
        // `[]` is not an argument (one character at least): it stays literal text.
        assert.deepEqual(await server.capture.waitFor(1), ['1:a b 0:[] 0:']);
      } finally {
        await server.close();
      }
    });
  });
}

describe('logger.token', () => {
  it('returns the logger, for chaining', () => {
    assert.equal(
      logger.token('test-chain-a', () => 'a').token('test-chain-b', () => 'b'),
      logger,
    );
  });

  it('overwrites a token of the same name, built-in ones included', async () => {
    logger.token('test-over', () => 'first');
    logger.token('test-over', () => 'second');
    const server = await loggedServer((stream) => logger(':test-over', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['second']);
    } finally {
      await server.close();
    }
  });

  it('a token defined after the logger was created is used', async () => {
    const server = await loggedServer((stream) => logger(':test-late', { stream }));
    logger.token('test-late', () => 'late');
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['late']);
    } finally {
      await server.close();
    }
  });

  it('a token redefined between two lines is used from the next line on', async () => {
    // Compiled formats cache the registry's functions: a redefinition must still reach them.
    logger.token('test-redefined', () => 'before');
    const server = await loggedServer((stream) => logger(':test-redefined :url', { stream }));
    try {
      await send(server);
      await server.capture.waitFor(1);
      logger.token('test-redefined', () => 'after');
      await send(server);
      assert.deepEqual(await server.capture.waitFor(2), ['before /', 'after /']);
    } finally {
      await server.close();
    }
  });

  it('a falsy or missing value is written as -, a number as it is', async () => {
    logger.token('test-empty', () => '');
    logger.token('test-zero', () => 0);
    logger.token('test-num', () => 12.5);
    const server = await loggedServer((stream) =>
      logger(':test-empty :test-zero :test-num', { stream }),
    );
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['- - 12.5']);
    } finally {
      await server.close();
    }
  });

  it('a token reads the AsyncLocalStorage store active when the logger ran', async () => {
    const als = new AsyncLocalStorage<string>();
    logger.token('test-als', () => als.getStore());
    const server = await loggedServer((stream) => logger(':test-als', { stream }), {
      before: [(_req, _res, next) => als.run('ctx-1', next)],
      handler: (_req, res) => {
        setTimeout(() => als.exit(() => res.end()), 5);
      },
    });
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['ctx-1']);
    } finally {
      await server.close();
    }
  });

  it('a predefined format uses a built-in token the application replaced, and the built-in again once restored', async () => {
    const server = await loggedServer((stream) => logger('tiny', { stream }));
    try {
      logger.token('method', () => 'REPLACED');
      await send(server, { path: '/replaced' });
      await server.capture.waitFor(1);
      logger.token('method', builtinTokens.method as TokenFn);
      await send(server, { path: '/restored' });
      const [replaced, restored] = await server.capture.waitFor(2);
      assert.match(replaced ?? '', /^REPLACED \/replaced 200 /);
      assert.match(restored ?? '', /^GET \/restored 200 /);
    } finally {
      logger.token('method', builtinTokens.method as TokenFn);
      await server.close();
    }
  });

  it('a built-in token that throws is written "-" in a predefined format, the rest of the line kept', async () => {
    const server = await loggedServer((stream) => logger('combined', { stream }), {
      handler: (req, res) => {
        Object.defineProperty(req, 'originalUrl', {
          get() {
            throw new Error('no URL today');
          },
        });
        res.end('ok');
      },
    });
    try {
      await send(server, { path: '/thrown', headers: { 'user-agent': 'ua-test' } });
      const [line] = await server.capture.waitFor(1);
      assert.match(
        line ?? '',
        /^127\.0\.0\.1 - - \[[^\]]+\] "GET - HTTP\/1\.1" 200 - "-" "ua-test"$/,
      );
      const [warning] = await warnings.of('HTTPWARE_LOGGER_TOKEN');
      assert.match(warning?.message ?? '', /token ":url" threw.*no URL today/);
    } finally {
      await server.close();
    }
  });

  it('tokens and formats are separate: a token named like a format leaves it alone', async () => {
    logger.token('tiny', () => 'token-value');
    logger.format('method', ':url');
    const server = await loggedServer((stream) => logger('tiny', { stream }));
    try {
      await send(server, { path: '/sep' });
      const [line] = await server.capture.waitFor(1);
      assert.match(line ?? '', /^GET \/sep 200 2 - \d+\.\d{3} ms$/);
    } finally {
      await server.close();
    }
  });

  it('rejects a name that is not a string and a fn that is not a function', () => {
    assert.throws(() => logger.token(1 as unknown as string, () => 'x'), {
      name: 'TypeError',
      message: /argument name/,
    });
    assert.throws(() => logger.token('x', 'y' as never), {
      name: 'TypeError',
      message: /argument fn/,
    });
  });
});

describe('token arguments and this, as morgan passes them', () => {
  it('passes the bracket argument JSON-escaped, as morgan does', async () => {
    const seen: string[] = [];
    logger.token('test-arg-raw', (_req, _res, arg?: string) => {
      seen.push(arg ?? '(none)');
      return 'x';
    });
    const server = await loggedServer((stream) =>
      logger(':test-arg-raw[a"b] :test-arg-raw[c\\d] :test-arg-raw[x-forwarded-for]', {
        stream,
      }),
    );
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['x x x']);
      // morgan's generated code embedded the argument still JSON-encoded.
      assert.deepEqual(seen, ['a\\"b', 'c\\\\d', 'x-forwarded-for']);
    } finally {
      await server.close();
    }
  });

  it('calls a token with this set to the tokens object, so it can reach other tokens', async () => {
    logger.token('test-this', function (this: Record<string, Function>, req, res) {
      return `${this.method?.(req, res)}!${this['test-this-other']?.(req, res)}`;
    });
    logger.token('test-this-other', () => 'other');
    const server = await loggedServer((stream) => logger(':test-this', { stream }));
    try {
      await send(server, { method: 'POST' });
      assert.deepEqual(await server.capture.waitFor(1), ['POST!other']);
    } finally {
      await server.close();
    }
  });
});

describe('a token returning an array or object', () => {
  it('its string form is escaped in a format string; a format function gets it with each item escaped', async () => {
    // Express turns a repeated query parameter into an array: `?x=a%0Ab&x=c`.
    logger.token('test-array', () => ['a\r\n127.0.0.1 - forged', 'b"c'] as never);
    let seen: unknown;
    const server = await loggedServer((stream) => logger('":test-array" :method', { stream }));
    const fnServer = await loggedServer((stream) =>
      logger(
        (tokens, req, res) => {
          seen = tokens['test-array']?.(req, res);
          return 'fn';
        },
        { stream },
      ),
    );
    try {
      await send(server);
      await send(fnServer);
      assert.deepEqual(await server.capture.waitFor(1), ['"a\\r\\n127.0.0.1 - forged,b\\"c" GET']);
      assert.deepEqual(await fnServer.capture.waitFor(1), ['fn']);
      assert.deepEqual(seen, ['a\\r\\n127.0.0.1 - forged', 'b\\"c']);
    } finally {
      await server.close();
      await fnServer.close();
    }
  });
});
