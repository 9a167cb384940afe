// Fastify servers for the Fastify plugins' tests: an app built by the test, listening on
// 127.0.0.1 port 0, its Node request logger turned off as the docs tell users to.
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteShorthandOptions,
} from 'fastify';
import { type Answer, badBodyRoutes, bodyOf, routeOf } from './bad-bodies.js';
import { type Reply, type SendOptions, send } from './client.js';
import type { TestServer } from './server.js';

export type FastifyTestServer = Pick<TestServer, 'origin' | 'transport' | 'port' | 'close'> & {
  readonly app: FastifyInstance;
};

/** Builds an app with `build`, starts it on port 0 and gives its origin. */
export async function startFastify(
  build: (app: FastifyInstance) => void | Promise<void>,
  options: FastifyServerOptions = {},
): Promise<FastifyTestServer> {
  const app = Fastify({ logger: false, ...options });
  await build(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    app,
    port: address.port,
    origin: `http://127.0.0.1:${address.port}`,
    transport: 'http',
    close: () => app.close(),
  };
}

/**
 * The bad-body corpus's routes (test/helpers/bad-bodies.ts) on Fastify: each path in a context
 * of its own with the plugin given only that path's parser, answering `{ body }`, errors by
 * Fastify's default error handler (which answers httpware's `type` as Fastify's code where it
 * has one), and `GET /outcomes`.
 */
export function corpusRoutes(
  plugin: (app: FastifyInstance, parser: string, options: object) => void | Promise<void>,
): (app: FastifyInstance) => void {
  const recorded: Answer[] = [];
  return (app) => {
    app.get('/outcomes', async () => recorded.splice(0));
    app.addHook('onError', async (_request, _reply, err) => {
      const { statusCode = 500, type } = err as { statusCode?: number; type?: string };
      recorded.push({ status: statusCode, type: String(type) });
    });
    for (const path of Object.keys(badBodyRoutes)) {
      const route = routeOf(path);
      if (route === null) continue;
      app.register(async (child) => {
        // Only the route's parser: Fastify's own would take the types ours leave to them.
        child.removeContentTypeParser(['application/json', 'text/plain']);
        await plugin(child, route.parser, route.options);
        child.post(path, async (request) => {
          recorded.push({ status: 200, type: 'ok' });
          return { body: bodyOf(request.body) };
        });
      });
    }
  };
}

/** `POST /` answering `{ body }`: what the parsers made of the request's body. */
export function echoRoute(app: FastifyInstance, options: RouteShorthandOptions = {}): void {
  app.post('/', options, async (request) => ({ body: request.body ?? null }));
}

/**
 * The errors Fastify's `onError` hooks see in `app` (what a user's hook or error handler gets:
 * `type`, `code`, `statusCode` ...), in order.
 */
export function errorsSeen(app: FastifyInstance): Record<string, unknown>[] {
  const seen: Record<string, unknown>[] = [];
  app.addHook('onError', async (_request, _reply, err) => {
    seen.push(err as unknown as Record<string, unknown>);
  });
  return seen;
}

/**
 * Starts an app built by `build`, sends it one `POST /` (`request` adds to it), closes it: the
 * reply, and its body as JSON.
 */
export async function postOnce(
  build: (app: FastifyInstance) => void | Promise<void>,
  request: SendOptions,
  options: FastifyServerOptions = {},
): Promise<{ reply: Reply; json: Record<string, unknown> }> {
  const server = await startFastify(build, options);
  try {
    const reply = await send(server, { method: 'POST', path: '/', ...request });
    return { reply, json: JSON.parse(reply.text) as Record<string, unknown> };
  } finally {
    await server.close();
  }
}
