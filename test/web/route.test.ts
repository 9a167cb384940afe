// The route fetchLogger's lines carry (`:route`, `http.route`): the one given per handler
// (`log(handler, { route })`, for Next.js route handlers and plain fetch handlers), and under
// Hono the route of the handler that answered, read once it has run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { fetchLogger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { captureLines, type LineCapture, send } from '../helpers/index.js';

type Handler = (request: Request) => Response | Promise<Response>;

/** The lines `capture` has once `paths` were requested in turn of `handler` served on Node. */
async function linesOf(
  handler: Handler,
  capture: LineCapture,
  paths: readonly string[],
): Promise<string[]> {
  const server = await serveFetch(handler);
  try {
    for (const path of paths) await send(server, { path });
    return [...(await capture.waitFor(paths.length))];
  } finally {
    await server.close();
  }
}

const ok: Handler = () => new Response('ok');

describe('the route of a fetch handler given with log(handler, { route })', () => {
  it("is every request's :route, whatever its path", async () => {
    const capture = captureLines();
    const log = fetchLogger(':route :url', { stream: capture.stream });
    const lines = await linesOf(log(ok, { route: '/users/[id]' }), capture, [
      '/users/1',
      '/users/2?x=y',
    ]);
    assert.deepEqual(lines, ['/users/[id] /users/1', '/users/[id] /users/2?x=y']);
  });

  it("is the json line's http.route", async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream });
    const [line] = await linesOf(log(ok, { route: '/users/[id]' }), capture, ['/users/42']);
    assert.equal(JSON.parse(line as string)['http.route'], '/users/[id]');
  });

  it('is absent for a handler wrapped without one: the raw path is not taken', async () => {
    const capture = captureLines();
    const log = fetchLogger(':route', { stream: capture.stream });
    assert.deepEqual(await linesOf(log(ok), capture, ['/users/1']), ['-']);
  });

  it('is on the line of a handler that threw', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :route', { stream: capture.stream });
    const failing = log(
      (_request: Request): Response => {
        throw new Error('boom');
      },
      { route: '/users/[id]' },
    );
    await assert.rejects(async () => failing(new Request('http://localhost/users/1')));
    assert.deepEqual(await capture.waitFor(1), ['500 /users/[id]']);
  });

  it('is refused with a TypeError when the handler is wrapped, unless a non-empty string', () => {
    const log = fetchLogger(':route', { stream: captureLines().stream });
    for (const route of [42, '', null, ['/a'], { path: '/a' }]) {
      assert.throws(() => log(ok, { route } as never), TypeError, String(route));
    }
    assert.throws(() => log(ok, '/users/[id]' as never), TypeError);
    // Absent, undefined or null options are no route.
    log(ok, {});
    log(ok, { route: undefined });
    log(ok, null as never);
  });
});

/** A Hono app logging `format` through `app.use(log.middleware)`, its routes built by `build`. */
function honoApp(format: string, capture: LineCapture, build: (app: Hono) => void): Handler {
  const app = new Hono();
  app.use(fetchLogger(format, { stream: capture.stream }).middleware);
  build(app);
  return app.fetch;
}

const users = (app: Hono) => app.get('/users/:id', (c) => c.text(c.req.param('id')));

describe("the route of a line under Hono's app.use(log.middleware)", () => {
  it("is the answering handler's route in :route, whatever the id", async () => {
    const capture = captureLines();
    const app = honoApp(':route :url', capture, users);
    assert.deepEqual(await linesOf(app, capture, ['/users/1', '/users/2?x=y']), [
      '/users/:id /users/1',
      '/users/:id /users/2?x=y',
    ]);
  });

  it("is the json line's http.route", async () => {
    const capture = captureLines();
    const [line] = await linesOf(honoApp('json', capture, users), capture, ['/users/42']);
    assert.equal(JSON.parse(line as string)['http.route'], '/users/:id');
  });

  it("is absent from a 404: neither the logger's own /* nor the raw path", async () => {
    const capture = captureLines();
    const app = honoApp(':status :route', capture, (hono) => {
      users(hono);
      // A second middleware that passes the request on, matched with the logger's.
      hono.use('/users/*', (_c, next) => next());
    });
    assert.deepEqual(await linesOf(app, capture, ['/nothing', '/users/1/x']), ['404 -', '404 -']);
  });

  it('includes the prefix of a sub-app mounted with app.route', async () => {
    const capture = captureLines();
    const api = new Hono();
    users(api);
    const app = honoApp(':route', capture, (hono) => hono.route('/api', api));
    assert.deepEqual(await linesOf(app, capture, ['/api/users/7']), ['/api/users/:id']);
  });

  it('is absent when a middleware answered: its /api/* is no route', async () => {
    const capture = captureLines();
    const app = honoApp(':status :route', capture, (hono) => {
      hono.use('/api/*', async (c, next) => {
        if (c.req.query('key') === undefined) return c.text('no', 401);
        await next();
      });
      hono.get('/api/users/:id', (c) => c.text('ok'));
    });
    assert.deepEqual(await linesOf(app, capture, ['/api/users/1', '/api/users/1?key=k']), [
      '401 -',
      '200 /api/users/:id',
    ]);
  });

  it("is the route of app.on's handler, and absent for app.all's (recorded as app.use's)", async () => {
    const capture = captureLines();
    const app = honoApp(':route', capture, (hono) => {
      hono.on(['GET', 'POST'], '/users/:id', (c) => c.text('ok'));
      hono.all('/items/:id', (c) => c.text('ok'));
    });
    assert.deepEqual(await linesOf(app, capture, ['/users/1', '/items/1']), ['/users/:id', '-']);
  });

  it('is not taken from a middleware registered after the route (hono #4609)', async () => {
    const capture = captureLines();
    const app = honoApp(':route', capture, (hono) => {
      users(hono);
      hono.use((_c, next) => next());
    });
    assert.deepEqual(await linesOf(app, capture, ['/users/1']), ['/users/:id']);
  });

  it("is the route of a handler that threw, answered by Hono's error handler", async () => {
    const capture = captureLines();
    const app = honoApp(':status :route', capture, (hono) => {
      hono.get('/users/:id', () => {
        throw new Error('boom');
      });
      hono.onError((_err, c) => c.text('failed', 500));
    });
    assert.deepEqual(await linesOf(app, capture, ['/users/1']), ['500 /users/:id']);
  });
});
