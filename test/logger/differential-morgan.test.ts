// The same requests through morgan 1.12.1 and through httpware's logger, installed side by
// side in one server: the lines must be byte-identical for every predefined format and for
// escaping. `Date` is frozen; response times (measured by each on its own clock) are masked.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import morgan from 'morgan';
import { logger } from '../../src/logger/index.js';
import {
  captureLines,
  frameworks,
  type LineCapture,
  type Middleware,
  rawHead,
  send,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fixTime, maskTimes } from '../helpers/logger.js';

const FORMATS = ['combined', 'common', 'dev', 'short', 'tiny'] as const;

// Every character the escaping rule touches, and some it must leave alone.
const HOSTILE =
  Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('') +
  '\u2028\u2029\u00e9\u4e2d\ud83d\ude00';

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

/** Requests chosen to exercise every token of the predefined formats, and escaping. */
const REQUESTS: ReadonlyArray<{ name: string; run: (server: TestServer) => Promise<unknown> }> = [
  { name: 'a plain GET', run: (s) => send(s) },
  {
    name: 'a GET with user, referrer and agent',
    run: (s) =>
      send(s, {
        path: '/p?q=1',
        auth: 'tobi:ferret',
        headers: { referer: 'http://example.com/', 'user-agent': 'agent/1.0' },
      }),
  },
  { name: 'a POST', run: (s) => send(s, { path: '/post', body: 'hello' }) },
  { name: 'a HEAD', run: (s) => send(s, { method: 'HEAD', path: '/head' }) },
  { name: 'a 302', run: (s) => send(s, { path: '/status/302' }) },
  { name: 'a 404', run: (s) => send(s, { path: '/status/404' }) },
  { name: 'a 500', run: (s) => send(s, { path: '/status/500' }) },
  { name: 'headers given to writeHead only', run: (s) => send(s, { path: '/writehead' }) },
  {
    name: 'headers given to writeHead as a flat list',
    run: (s) => send(s, { path: '/writehead-list' }),
  },
  { name: 'an aborted request', run: (s) => send(s, { path: '/abort' }).catch(() => undefined) },
  {
    name: 'quotes and backslashes in the URL',
    run: (s) =>
      sendRaw(s, [Buffer.from(rawHead('GET', '/a"b\\c', { connection: 'close' }), 'latin1')]),
  },
  {
    name: 'C1 controls and U+2028 bytes in a header',
    run: (s) =>
      sendRaw(s, [
        Buffer.from(
          rawHead('GET', '/h', {
            'user-agent': 'x"y\\z\tq\x85\x9b\xe2\x80\xa8',
            referer: '\x80\x9f',
            connection: 'close',
          }),
          'latin1',
        ),
      ]),
  },
  {
    name: 'a forged line in the Basic-auth user',
    run: (s) =>
      send(s, {
        headers: { authorization: basic('evil\n127.0.0.1 - admin "GET /\x1b[2J\u2028":pw') },
      }),
  },
  {
    name: 'every control character in a Basic-auth user',
    run: (s) =>
      send(s, {
        headers: { authorization: basic(`${HOSTILE.replace(/[:\n\r\u2028\u2029]/g, '')}:pw`) },
      }),
  },
  {
    name: 'a URL rewritten by an application to hold raw controls',
    run: (s) => send(s, { path: '/rewrite' }),
  },
];

/** A before-logger middleware standing for an app that decodes its URL. */
const rewriteUrl: Middleware = (req, _res, next) => {
  if (req.url === '/rewrite') {
    req.url = `/decoded${HOSTILE}`;
    if ('originalUrl' in req) (req as { originalUrl: string }).originalUrl = req.url;
  }
  next();
};

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (url === '/abort') {
    req.socket.destroy();
    return;
  }
  if (url === '/writehead') {
    res.writeHead(200, 'Fine', { 'Content-Length': 2 }).end('ok');
    return;
  }
  if (url === '/writehead-list') {
    res.writeHead(203, ['content-length', '2', 'x-a', '1']).end('ok');
    return;
  }
  const status = /^\/status\/(\d+)/.exec(url);
  res.statusCode = status ? Number(status[1]) : 200;
  res.setHeader('content-length', '2');
  res.end('ok');
}

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime();
});
afterEach(() => undo());

for (const framework of frameworks) {
  describe(`byte-identical to morgan 1.12.1 in ${framework}`, () => {
    // Two servers, one per logger, so that neither sees what the other did to `res` (morgan's
    // on-headers copies writeHead's headers into it).
    const ours = new Map<string, LineCapture>();
    const theirs = new Map<string, LineCapture>();
    let ourServer: TestServer;
    let theirServer: TestServer;
    let expectedLines = 0;

    before(async () => {
      const mine: Middleware[] = [rewriteUrl];
      const reference: Middleware[] = [rewriteUrl];
      for (const name of FORMATS) {
        const ourCapture = captureLines();
        const theirCapture = captureLines();
        ours.set(name, ourCapture);
        theirs.set(name, theirCapture);
        mine.push(logger(name, { stream: ourCapture.stream }));
        reference.push(morgan(name, { stream: theirCapture.stream }));
      }
      ourServer = await startServer({ framework, middleware: mine, handler });
      theirServer = await startServer({ framework, middleware: reference, handler });
    });
    after(async () => {
      await ourServer.close();
      await theirServer.close();
    });

    for (const request of REQUESTS) {
      it(`${request.name}: every predefined format`, async () => {
        await request.run(ourServer);
        await request.run(theirServer);
        expectedLines += 1;
        const index = expectedLines - 1;
        for (const name of FORMATS) {
          const mine = await ours.get(name)?.waitFor(expectedLines);
          const reference = await theirs.get(name)?.waitFor(expectedLines);
          assert.equal(
            maskTimes(mine?.[index] ?? ''),
            maskTimes(reference?.[index] ?? ''),
            `format ${name}`,
          );
        }
      });
    }
  });
}

describe('byte-identical to morgan 1.12.1 for headers given to writeHead', () => {
  const format = ':status :res[content-length] :res[x-a] :res[x-b] :res[x-c]';
  const cases: ReadonlyArray<[string, (res: ServerResponse) => void]> = [
    ['an object', (res) => res.writeHead(200, { 'X-A': ['1', '2'], 'x-b': 3 }).end()],
    [
      'pairs',
      (res) =>
        res
          .writeHead(200, [
            ['X-A', '1'],
            ['x-a', '2'],
          ])
          .end(),
    ],
    ['a flat list', (res) => res.writeHead(200, ['x-a', '1', 'X-A', '2', 'x-b', 'z']).end()],
    [
      'a flat list over set headers',
      (res) => {
        res.setHeader('x-a', 'set');
        res.setHeader('x-c', 'kept');
        res.writeHead(200, 'OK', ['x-a', 'given']).end('ok');
      },
    ],
  ];
  for (const framework of frameworks) {
    for (const [label, respond] of cases) {
      // Node's writeHead throws on [name, value] pairs once a header was set (Express sets
      // X-Powered-By); morgan hides that by copying the headers in itself. We leave `res` and
      // writeHead as they are, so that application error stays the application's.
      if (label === 'pairs' && framework.startsWith('express')) continue;
      it(`${label} in ${framework}`, async () => {
        const mine = captureLines();
        const reference = captureLines();
        const handler = (_req: IncomingMessage, res: ServerResponse) => respond(res);
        const ourServer = await startServer({
          framework,
          middleware: [logger(format, { stream: mine.stream })],
          handler,
        });
        const theirServer = await startServer({
          framework,
          middleware: [morgan(format, { stream: reference.stream })],
          handler,
        });
        try {
          await send(ourServer);
          await send(theirServer);
          assert.deepEqual(await mine.waitFor(1), await reference.waitFor(1));
        } finally {
          await ourServer.close();
          await theirServer.close();
        }
      });
    }
  }
});

describe('byte-identical to morgan 1.12.1 for custom tokens', () => {
  before(() => {
    morgan.token('hostile', () => HOSTILE);
    logger.token('hostile', () => HOSTILE);
    morgan.token('number', () => 42 as unknown as string);
    logger.token('number', () => 42);
  });

  it('escapes a hostile custom token value identically, leaving literal text alone', async () => {
    const format = '"\t:hostile" :number :req[x-missing]\x1b[0m';
    const mine = captureLines();
    const reference = captureLines();
    const server = await startServer({
      middleware: [
        logger(format, { stream: mine.stream }),
        morgan(format, { stream: reference.stream }),
      ],
    });
    try {
      await send(server);
      const [ourLine] = await mine.waitFor(1);
      const [theirLine] = await reference.waitFor(1);
      assert.equal(ourLine, theirLine);
      assert.ok(ourLine?.startsWith('"\t\\u0000'), 'literal text is not escaped');
    } finally {
      await server.close();
    }
  });
});
