// `exclude`: requests left out by path, method or status, declared rather than written as a
// `skip` function; paths and methods on arrival, statuses once the response is done.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { frameworks, send } from '../helpers/index.js';
import { captureLines } from '../helpers/lines.js';
import { loggedServer } from '../helpers/logger.js';

/** Answers with the status the path names (`/404`), 200 for any other path. */
const statusHandler = (
  req: { url?: string | undefined },
  res: { statusCode: number; end(): void },
) => {
  res.statusCode = Number(req.url?.slice(1)) || 200;
  res.end();
};

for (const framework of frameworks) {
  describe(`exclude in ${framework}`, () => {
    it('leaves out an exact path, a prefix and a RegExp, and logs the rest', async () => {
      const server = await loggedServer(
        (stream) =>
          logger(':url', {
            stream,
            exclude: { paths: ['/health', '/assets/*', /^\/metrics(\/|$)/] },
          }),
        { framework },
      );
      try {
        for (const path of ['/health', '/health?deep=1', '/assets/app.js', '/metrics', '/work']) {
          await send(server, { path });
        }
        await send(server, { path: '/healthz' });
        assert.deepEqual(await server.capture.waitFor(2), ['/work', '/healthz']);
      } finally {
        await server.close();
      }
    });

    it('leaves out the methods named, in any case', async () => {
      const server = await loggedServer(
        (stream) => logger(':method', { stream, exclude: { methods: ['options', 'Delete'] } }),
        { framework },
      );
      try {
        await send(server, { method: 'OPTIONS' });
        await send(server, { method: 'DELETE' });
        await send(server, { method: 'GET' });
        assert.deepEqual(await server.capture.waitFor(1), ['GET']);
      } finally {
        await server.close();
      }
    });

    it('leaves out HEAD with GET, as HEAD runs the GET routes', async () => {
      const server = await loggedServer(
        (stream) => logger(':method', { stream, exclude: { methods: ['get'] } }),
        { framework },
      );
      try {
        await send(server, { method: 'HEAD' });
        await send(server, { method: 'GET' });
        await send(server, { method: 'POST' });
        assert.deepEqual(await server.capture.waitFor(1), ['POST']);
      } finally {
        await server.close();
      }
    });

    it('leaves out statuses given as codes, classes and ranges', async () => {
      const server = await loggedServer(
        (stream) => logger(':status', { stream, exclude: { statuses: [304, '2xx', [404, 410]] } }),
        { framework, handler: statusHandler },
      );
      try {
        for (const status of [200, 204, 304, 404, 410, 301, 500]) {
          await send(server, { path: `/${status}` });
        }
        assert.deepEqual(await server.capture.waitFor(2), ['301', '500']);
      } finally {
        await server.close();
      }
    });
  });
}

describe('exclude', () => {
  it('an excluded path gets no line over HTTP/2 either', async () => {
    const server = await loggedServer(
      (stream) => logger(':url', { stream, exclude: { paths: ['/health'] } }),
      { transport: 'h2' },
    );
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/work' });
      assert.deepEqual(await server.capture.waitFor(1), ['/work']);
    } finally {
      await server.close();
    }
  });

  it('works beside skip: either leaves a request out', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        exclude: { paths: ['/health'] },
        skip: (req) => req.url === '/quiet',
      }),
    );
    try {
      for (const path of ['/health', '/quiet', '/work']) await send(server, { path });
      assert.deepEqual(await server.capture.waitFor(1), ['/work']);
    } finally {
      await server.close();
    }
  });

  it('an excluded status is checked before skip is called', async () => {
    const skipped: string[] = [];
    const server = await loggedServer(
      (stream) =>
        logger(':url', {
          stream,
          exclude: { statuses: [304] },
          skip: (req) => {
            skipped.push(`${req.url}`);
            return false;
          },
        }),
      { handler: statusHandler },
    );
    try {
      await send(server, { path: '/304' });
      await send(server, { path: '/200' });
      assert.deepEqual(await server.capture.waitFor(1), ['/200']);
      assert.deepEqual(skipped, ['/200']);
    } finally {
      await server.close();
    }
  });

  it('an excluded path is not handed to skip', async () => {
    const seen: string[] = [];
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        exclude: { paths: ['/health'] },
        skip: (req) => {
          seen.push(`${req.url}`);
          return false;
        },
      }),
    );
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/work' });
      await server.capture.waitFor(1);
      assert.deepEqual(seen, ['/work']);
    } finally {
      await server.close();
    }
  });

  it('fetchLogger leaves out paths, methods and statuses alike', async () => {
    const capture = captureLines();
    const log = fetchLogger(':method :url :status', {
      stream: capture.stream,
      exclude: { paths: ['/health'], methods: ['OPTIONS'], statuses: [404] },
    });
    const server = await serveFetch(
      log((request) => new Response('', { status: request.url.endsWith('/gone') ? 404 : 200 })),
    );
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/x', method: 'OPTIONS' });
      await send(server, { path: '/gone' });
      await send(server, { path: '/work' });
      assert.deepEqual(await capture.waitFor(1), ['GET /work 200']);
    } finally {
      await server.close();
    }
  });

  it('fetchLogger as a Hono middleware leaves out an excluded path', async () => {
    const capture = captureLines();
    const log = fetchLogger(':url', { stream: capture.stream, exclude: { paths: ['/health'] } });
    const server = await serveFetch(async (request) => {
      const c = { req: { raw: request }, res: new Response('ok') };
      await log.middleware(c, async () => {});
      return c.res;
    });
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/work' });
      assert.deepEqual(await capture.waitFor(1), ['/work']);
    } finally {
      await server.close();
    }
  });
});
