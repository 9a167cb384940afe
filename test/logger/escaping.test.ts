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

/** The line of one request through logger(format), `before` run ahead (a query parser). */
async function formatLine(
  format: Parameters<typeof logger>[0],
  path = '/',
  framework: (typeof frameworks)[number] = 'http',
): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), { framework });
  try {
    await send(server, { path });
    const [line] = await server.capture.waitFor(1);
    return line as string;
  } finally {
    await server.close();
  }
}

for (const framework of ['express4', 'express5'] as const) {
  describe(`objects a token returns, reaching a format function, in ${framework}`, () => {
    it('an array from req.query has each item escaped, and stays an array', async () => {
      logger.token('test-query-x', (req) => (req as { query?: { x?: never } }).query?.x);
      const line = await formatLine(
        (tokens, req, res) => {
          const x = tokens['test-query-x']?.(req, res) as unknown as string[];
          return `${Array.isArray(x)} ${x.length} ${x[0]}|${x.join('|')}`;
        },
        '/?x=a%0D%0Aforged&x=%1B%5B2J%22',
        framework,
      );
      assert.equal(line, 'true 2 a\\r\\nforged|a\\r\\nforged|\\u001b[2J\\"');
    });

    it('the keys and values of req.query are escaped', async () => {
      logger.token('test-query', (req) => (req as { query?: never }).query);
      const line = await formatLine(
        (tokens, req, res) => {
          const query = tokens['test-query']?.(req, res) as unknown as Record<string, string>;
          return Object.keys(query)
            .map((key) => `${key}=${query[key]}`)
            .join('&');
        },
        '/?a%0Ab=c%0Ad',
        framework,
      );
      assert.equal(line, 'a\\nb=c\\nd');
    });
  });
}

describe('objects a token returns, reaching a format function', () => {
  it('an object nested in an array has its strings escaped at every depth', async () => {
    logger.token('test-nested', () => [{ a: ['x\ny', { b: '\u2028' }] }] as never);
    const line = await formatLine((tokens, req, res) => {
      const value = tokens['test-nested']?.(req, res) as unknown as [
        { a: [string, { b: string }] },
      ];
      return `${value[0].a[0]} ${value[0].a[1].b}`;
    });
    assert.equal(line, 'x\\ny \\u2028');
  });

  it('a Buffer arrives as its text, escaped', async () => {
    logger.token('test-buffer', () => Buffer.from('a\nb') as never);
    const line = await formatLine((tokens, req, res) => `${tokens['test-buffer']?.(req, res)}`);
    assert.equal(line, 'a\\nb');
  });

  it('a value that refers to itself is copied once, without looping', async () => {
    const cyclic: Record<string, unknown> = { name: 'a\nb' };
    cyclic.self = cyclic;
    logger.token('test-cyclic', () => cyclic as never);
    const line = await formatLine((tokens, req, res) => {
      const value = tokens['test-cyclic']?.(req, res) as unknown as typeof cyclic;
      return `${value.name} ${value.self === value}`;
    });
    assert.equal(line, 'a\\nb true');
  });

  it('the application object itself is left as it was', async () => {
    const list = ['a\nb'];
    logger.token('test-list', () => list as never);
    await formatLine((tokens, req, res) => `${tokens['test-list']?.(req, res)}`);
    assert.deepEqual(list, ['a\nb']);
  });

  it('a format string writes an escaped array once, as morgan writes a plain one', async () => {
    logger.token('test-array', () => ['a"b', 'c\\d'] as never);
    assert.equal(await formatLine(':test-array'), 'a\\"b,c\\\\d');
  });

  it('numbers, booleans and dates are handed over as they are', async () => {
    const date = new Date(0);
    logger.token('test-plain', () => [1, true, date] as never);
    const line = await formatLine((tokens, req, res) => {
      const value = tokens['test-plain']?.(req, res) as unknown as [number, boolean, Date];
      const [n, b, d] = value;
      return `${typeof n} ${typeof b} ${d === date}`;
    });
    assert.equal(line, 'number boolean true');
  });
});
