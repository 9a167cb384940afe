// What a client controls of `exclude`: the path. A path with dot segments is never left out by
// an `exclude` prefix, through node:http, Express 4 and 5, Connect and the fetch door, and a
// HEAD probe of a GET route stays in the log.
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { describe, it } from 'node:test';
import express5 from 'express';
import express4 from 'express4';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { escapeLikeMorgan } from '../helpers/hostile.js';
import {
  captureLines,
  frameworks,
  rawHead,
  send,
  sendRaw,
  serve,
  type TestServer,
} from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

/** Paths under `/assets/` whose dot segments a router or file server behind may resolve. */
const climbing = [
  '/assets/../admin',
  '/assets/%2e%2e/admin',
  '/assets/%2E./admin',
  '/assets/./x',
  // `/` and `\` percent-encoded end a segment once a file server decodes the path.
  '/assets/..%2fpackage.json',
  '/assets/..%2Fpackage.json',
  '/assets/..%5cpackage.json',
  '/assets/%2e%2e%5C..%5cetc/passwd',
  '/assets%2f..%2fadmin',
  // A literal `\`: WHATWG URL parsers read it as `/`, and Windows paths use it.
  '/assets/..\\package.json',
  '/assets\\..\\admin',
];

/** A GET of `path` exactly as written: Node's own client resolves dot segments before sending. */
const getAsSent = (server: Pick<TestServer, 'port'>, path: string) =>
  sendRaw(server, [rawHead('GET', path, { connection: 'close' })]);

describe('exclude under crafted paths', () => {
  for (const framework of frameworks) {
    for (const path of climbing) {
      it(`${framework}: a path with a dot segment is logged though its prefix is excluded: ${path}`, async () => {
        const server = await loggedServer(
          (stream) => logger(':url', { stream, exclude: { paths: ['/assets/*'] } }),
          { framework },
        );
        try {
          await getAsSent(server, path);
          // The line escapes a `\` as morgan does.
          assert.deepEqual(await server.capture.waitFor(1), [escapeLikeMorgan(path)]);
        } finally {
          await server.close();
        }
      });
    }
  }

  // The Request's URL is WHATWG's: its dot segments (`..`, `%2e%2e`) and `\` are resolved
  // before the logger sees it, but `%2f` and `%5c` are kept as sent.
  for (const path of ['/assets/..%2fpackage.json', '/assets/..%5Cpackage.json']) {
    it(`fetchLogger: a path with an encoded separator is logged: ${path}`, async () => {
      const capture = captureLines();
      const log = fetchLogger(':url', {
        stream: capture.stream,
        exclude: { paths: ['/assets/*'] },
      });
      const server = await serveFetch(log(() => new Response('ok')));
      try {
        await getAsSent(server, path);
        assert.deepEqual(await capture.waitFor(1), [path]);
      } finally {
        await server.close();
      }
    });
  }

  it('a path whose dots are no segment is still left out: /assets/..x and /assets/a..%2f', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', { stream, exclude: { paths: ['/assets/*'] } }),
    );
    try {
      for (const path of ['/assets/..x', '/assets/a..%2fb', '/assets/x%2e%2e']) {
        await getAsSent(server, path);
      }
      await send(server, { path: '/work' });
      assert.deepEqual(await server.capture.waitFor(1), ['/work']);
    } finally {
      await server.close();
    }
  });

  it('a RegExp with the g flag answers every request alike', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', { stream, exclude: { paths: [/^\/health$/g] } }),
    );
    try {
      // A stateful `lastIndex` would let every second /health through.
      for (let i = 0; i < 4; i++) await send(server, { path: '/health' });
      await send(server, { path: '/work' });
      assert.deepEqual(await server.capture.waitFor(1), ['/work']);
    } finally {
      await server.close();
    }
  });
});

describe('exclude and HEAD probes of GET routes', () => {
  // exclude.methods refuses HEAD without GET (test/logger/controls-options.test.ts): it
  // would hide HEAD probes of GET routes. A skip function may still leave out HEAD successes.
  for (const [framework, express] of [
    ['express4', express4],
    ['express5', express5],
  ] as const) {
    it(`${framework}: the docs' skip of HEAD successes logs a HEAD probe's 403`, async () => {
      const capture = captureLines();
      const app = express();
      app.use(
        logger(':method :status', {
          stream: capture.stream,
          skip: (req, res) => req.method === 'HEAD' && res.statusCode < 400,
        }),
      );
      // Express answers HEAD with the GET route: its check, and its 403, run.
      app.get('/api/reset', (req, res) => {
        res.sendStatus(req.query.token === 'right' ? 200 : 403);
      });
      const server = await serve(app as unknown as RequestListener);
      try {
        await send(server, { method: 'HEAD', path: '/api/reset?token=guess' });
        await send(server, { method: 'HEAD', path: '/api/reset?token=right' });
        await send(server, { path: '/api/reset?token=right' });
        assert.deepEqual(await capture.waitFor(2), ['HEAD 403', 'GET 200']);
      } finally {
        await server.close();
      }
    });
  }
});
