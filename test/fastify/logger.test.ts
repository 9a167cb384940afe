// httpwareLogger on Fastify 5: each format's line is the Node logger's line for the same
// exchange, one line per request, scoped to the context it is registered in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { httpwareLogger } from '../../src/fastify/index.js';
import { logger } from '../../src/logger/index.js';
import { startFastify } from '../helpers/fastify.js';
import { captureLines, type SendOptions, send } from '../helpers/index.js';
import {
  exactLinesEachTest,
  nodeLineForOk,
  fullRequest as request,
  withoutPorts,
} from '../helpers/logger.js';

exactLinesEachTest();

/** The lines httpwareLogger writes for `requests` to an app built by `build`. */
async function fastifyLines(
  build: (app: FastifyInstance, stream: NodeJS.WritableStream) => void,
  requests: SendOptions[],
  count = requests.length,
): Promise<string[]> {
  const capture = captureLines();
  const server = await startFastify((app) => build(app, capture.stream));
  try {
    for (const options of requests) await send(server, options);
    return await capture.waitFor(count);
  } finally {
    await server.close();
  }
}

const okRoute = (app: FastifyInstance, path = '/path') => app.get(path, async () => 'ok');

describe("each predefined format's line on Fastify is the Node logger's", () => {
  for (const format of ['combined', 'common', 'dev', 'short', 'tiny', 'json', 'ecs']) {
    it(`"${format}"`, async () => {
      const expected = await nodeLineForOk(format);
      const [line] = await fastifyLines(
        (app, stream) => {
          app.register(httpwareLogger, { format, stream });
          okRoute(app);
        },
        [request],
      );
      // Fastify knows the route (`/path`), which a node:http handler does not: the json line
      // has its http.route last (test/fastify/route.test.ts).
      const routed =
        format === 'json' ? `${expected.slice(0, -1)},"http.route":"/path"}` : expected;
      assert.equal(withoutPorts(line as string), withoutPorts(routed));
    });
  }
});

describe('httpwareLogger', () => {
  it('defaults to the combined format', async () => {
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { stream });
        okRoute(app);
      },
      [request],
    );
    assert.equal(line, await nodeLineForOk('combined'));
  });

  it('writes one line per request', async () => {
    const lines = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: 'tiny', stream });
        okRoute(app);
      },
      [{ path: '/path' }, { path: '/path' }],
    );
    assert.deepEqual(lines, ['GET /path 200 2 - 1.500 ms', 'GET /path 200 2 - 1.500 ms']);
  });

  it("logs the status Fastify's error handler answers with", async () => {
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: ':method :url :status', stream });
        app.get('/boom', async () => {
          throw Object.assign(new Error('teapot'), { statusCode: 418 });
        });
      },
      [{ path: '/boom' }],
    );
    assert.equal(line, 'GET /boom 418');
  });

  for (const format of ['json', 'ecs'] as const) {
    it(`records the error a route throws as the ${format} line's error fields`, async () => {
      const [line] = await fastifyLines(
        (app, stream) => {
          app.register(httpwareLogger, { format, stream });
          app.get('/boom', async () => {
            throw new RangeError('quota spent');
          });
        },
        [{ path: '/boom' }],
      );
      const entry = JSON.parse(line as string);
      assert.equal(entry['http.response.status_code'], 500);
      assert.equal(entry['error.type'], 'RangeError');
      assert.equal(entry['error.message'], 'quota spent');
    });
  }

  it('records the type of an error with a status in :error-type', async () => {
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: ':status :error-type :error-message', stream });
        app.get('/boom', async () => {
          throw Object.assign(new Error('too many'), { statusCode: 429, type: 'quota.exceeded' });
        });
      },
      [{ path: '/boom' }],
    );
    assert.equal(line, '429 quota.exceeded too many');
  });

  it('records the error even when setErrorHandler answers it, until recordError clears it', async () => {
    const lines = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: ':status :error-type', stream });
        app.setErrorHandler((err, request, reply) => {
          if (request.url === '/cleared') logger.recordError(request.raw, null);
          reply.code(200).send({ handled: (err as Error).message });
        });
        for (const path of ['/kept', '/cleared']) {
          app.get(path, async () => {
            throw new TypeError('bad');
          });
        }
      },
      [{ path: '/kept' }, { path: '/cleared' }],
    );
    assert.deepEqual(lines, ['200 TypeError', '200 -']);
  });

  it('records no error for a request that succeeded', async () => {
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: 'json', stream });
        okRoute(app);
      },
      [{ path: '/path' }],
    );
    assert.equal('error.type' in JSON.parse(line as string), false);
  });

  it('registered twice in one context, fails the second registration', async () => {
    await assert.rejects(
      startFastify((app) => {
        app.register(httpwareLogger, { format: 'tiny' });
        app.register(httpwareLogger, { format: 'json' });
      }),
      /httpwareLogger is already registered/,
    );
  });

  it('registered in a child of a context that has it, fails that registration', async () => {
    await assert.rejects(
      startFastify((app) => {
        app.register(httpwareLogger, { format: 'tiny' });
        app.register(async (child) => {
          await child.register(httpwareLogger, { format: 'json' });
        });
      }),
      /httpwareLogger is already registered/,
    );
  });

  it('registered in a child, then in its parent, fails ready', async () => {
    await assert.rejects(
      startFastify((app) => {
        app.register(async (child) => {
          await child.register(httpwareLogger, { format: 'json' });
        });
        app.register(httpwareLogger, { format: 'tiny' });
      }),
      /httpwareLogger is already registered/,
    );
  });

  it('registered in two sibling contexts, writes one line per request in each', async () => {
    const lines = await fastifyLines(
      (app, stream) => {
        for (const path of ['/a', '/b']) {
          app.register(async (child) => {
            await child.register(httpwareLogger, { format: `${path} :url`, stream });
            okRoute(child, path);
          });
        }
      },
      [{ path: '/a' }, { path: '/b' }],
    );
    assert.deepEqual(lines, ['/a /a', '/b /b']);
  });

  it('registered at the root, logs the 404 of an unknown route', async () => {
    const [line] = await fastifyLines(
      (app, stream) => app.register(httpwareLogger, { format: ':url :status', stream }),
      [{ path: '/nowhere' }],
    );
    assert.equal(line, '/nowhere 404');
  });

  it("registered in a child context, logs only that context's routes", async () => {
    const lines = await fastifyLines(
      (app, stream) => {
        okRoute(app, '/outside');
        app.register(async (child) => {
          await child.register(httpwareLogger, { format: ':url', stream });
          okRoute(child, '/inside');
        });
      },
      [{ path: '/outside' }, { path: '/inside' }, { path: '/outside' }],
      1,
    );
    assert.deepEqual(lines, ['/inside']);
  });

  it("with requestId, logs Fastify's request.id", async () => {
    let seen: unknown;
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: ':request-id', stream, requestId: true });
        app.get('/path', async (req) => {
          seen = req.id;
          return 'ok';
        });
      },
      [{ path: '/path' }],
    );
    assert.equal(typeof seen, 'string');
    assert.equal(line, seen);
  });

  it('with requestId, logs the id Fastify took from its requestIdHeader', async () => {
    const capture = captureLines();
    const server = await startFastify(
      (app) => {
        app.register(httpwareLogger, {
          format: ':request-id',
          stream: capture.stream,
          requestId: true,
        });
        okRoute(app);
      },
      { requestIdHeader: 'x-request-id' },
    );
    try {
      await send(server, { path: '/path', headers: { 'x-request-id': 'abc-123' } });
      assert.deepEqual(await capture.waitFor(1), ['abc-123']);
    } finally {
      await server.close();
    }
  });

  it('without requestId, leaves the request id out', async () => {
    const [line] = await fastifyLines(
      (app, stream) => {
        app.register(httpwareLogger, { format: ':request-id', stream });
        okRoute(app);
      },
      [{ path: '/path' }],
    );
    assert.equal(line, '-');
  });

  it('a bad option fails the registration with its TypeError', async () => {
    await assert.rejects(
      startFastify((app) => {
        app.register(httpwareLogger, { format: 'tiny', skip: 'yes' as never });
      }),
      TypeError,
    );
  });
});
