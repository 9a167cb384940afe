import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import KoaRouter from '@koa/router';
import { koa } from '../../src/index.js';
import { abandon, send } from '../helpers/client.js';
import { type KoaMiddleware, koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines } from '../helpers/lines.js';

// The route the Koa logger's lines carry (`:route`, `http.route`): the path of the route
// layer @koa/router or koa-router matched, prefixes included; none when no route ran.

const require = createRequire(import.meta.url);
// koa-router 14 has no types of its own; the part of its API used here is @koa/router's.
const LegacyRouter = require('koa-router') as typeof KoaRouter;

const routers = [
  ['@koa/router 15', KoaRouter],
  ['koa-router 14', LegacyRouter],
] as const;

const ok: KoaMiddleware = async (ctx) => {
  ctx.body = 'ok';
};

/** What the tests use of a router. */
interface Router {
  routes(): unknown;
}

/** A router's middleware for `app.use` (its context type asks for more than Koa's gives). */
const routesOf = (router: Router) => router.routes() as KoaMiddleware;

/** The lines `format` writes for `paths`, requested in turn, through `router`. */
async function linesFor(
  version: (typeof koaVersions)[number],
  format: string,
  router: Router,
  paths: readonly string[],
): Promise<string[]> {
  const capture = captureLines();
  const server = await serveKoa(version, [
    koa.logger(format, { stream: capture.stream }),
    routesOf(router),
  ]);
  try {
    for (const path of paths) await send(server, { path });
    return [...(await capture.waitFor(paths.length))];
  } finally {
    await server.close();
  }
}

for (const version of koaVersions) {
  for (const [name, Routing] of routers) {
    describe(`${version}, ${name}: the route of a line`, () => {
      test("is the matched route's template, with the router's prefix, in :route", async () => {
        const router = new Routing({ prefix: '/api' });
        router.get('/users/:id', ok);
        const lines = await linesFor(version, ':route :url', router, [
          '/api/users/1',
          '/api/users/2?x=y',
        ]);
        assert.deepEqual(lines, ['/api/users/:id /api/users/1', '/api/users/:id /api/users/2?x=y']);
      });

      test("is the json line's http.route", async () => {
        const router = new Routing();
        router.get('/users/:id', ok);
        const [line] = await linesFor(version, 'json', router, ['/users/42']);
        assert.equal(JSON.parse(line as string)['http.route'], '/users/:id');
      });

      test("includes a nested router's prefix and its parent's", async () => {
        const users = new Routing();
        users.get('/users/:id', ok);
        const api = new Routing({ prefix: '/api' });
        api.use('/v1', users.routes());
        const [line] = await linesFor(version, ':route', api, ['/api/v1/users/7']);
        assert.equal(line, '/api/v1/users/:id');
      });

      test('is absent from a 404: no route matched, and the raw path is not taken', async () => {
        const router = new Routing({ prefix: '/api' });
        router.get('/users/:id', ok);
        const lines = await linesFor(version, ':status :route', router, [
          '/api/nothing',
          '/users/1',
        ]);
        assert.deepEqual(lines, ['404 -', '404 -']);
      });

      test("is absent when a router middleware answered before the route's handlers ran", async () => {
        const router = new Routing({ prefix: '/api' });
        // Its layer's path, a pattern such as `/api(?:\/|$)`, is left as the last one to run.
        router.use(async (ctx, next) => {
          if (ctx.query.key === undefined) ctx.throw(401);
          await next();
        });
        router.get('/users/:id', ok);
        const lines = await linesFor(version, ':status :route', router, [
          '/api/users/1',
          '/api/users/1?key=k',
        ]);
        assert.deepEqual(lines, ['401 -', '200 /api/users/:id']);
      });

      test('is the route of a handler that threw', async () => {
        const router = new Routing();
        router.get('/users/:id', () => {
          throw new Error('boom');
        });
        const [line] = await linesFor(version, ':status :route', router, ['/users/1']);
        assert.equal(line, '500 /users/:id');
      });

      test('is the route of a request whose client went away while its handler worked', async () => {
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const router = new Routing();
        router.get('/users/:id', async (ctx) => {
          ctx.status = 200;
          ctx.res.flushHeaders();
          await held;
          ctx.body = 'late';
        });
        const capture = captureLines();
        const server = await serveKoa(version, [
          koa.logger(':route', { stream: capture.stream }),
          routesOf(router),
        ]);
        try {
          await abandon(server, { path: '/users/3', when: 'head' });
          // The line is written before the chain returns: read from ctx, not after `next()`.
          assert.deepEqual(await capture.waitFor(1), ['/users/:id']);
        } finally {
          release();
          await server.close();
        }
      });
    });
  }
}
