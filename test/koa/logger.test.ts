import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';
import { koa, logger } from '../../src/index.js';
import { send } from '../helpers/client.js';
import { type KoaMiddleware, koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines, type LineCapture } from '../helpers/lines.js';

// What the Koa logger's line says of what Koa finally sent: the status Koa's own error
// handling gives a thrown error, a response the application wrote itself, Koa's 404.

async function lineFor(
  version: (typeof koaVersions)[number],
  format: string,
  handler: KoaMiddleware,
  path = '/',
): Promise<string> {
  const capture = captureLines();
  const server = await serveKoa(version, [koa.logger(format, { stream: capture.stream }), handler]);
  try {
    await send(server, { path });
    const [line] = await capture.waitFor(1);
    return line as string;
  } finally {
    await server.close();
  }
}

for (const version of koaVersions) {
  describe(`${version}: the logger's line`, () => {
    test('has the status of an error thrown downstream with a status (ctx.throw)', async () => {
      const line = await lineFor(version, ':status', (ctx) => ctx.throw(403, 'no'));
      assert.equal(line, '403');
    });

    test('has the statusCode of an error thrown downstream with only a statusCode', async () => {
      const line = await lineFor(version, ':status', async () => {
        throw Object.assign(new Error('gone'), { statusCode: 410 });
      });
      assert.equal(line, '410');
    });

    test("start writes koa-logger's arrival line before the end line", async () => {
      const capture = captureLines();
      const middleware = koa.logger(':method :url :status', {
        start: '<-- :method :url',
        stream: capture.stream,
      });
      const ok: KoaMiddleware = async (ctx) => {
        ctx.body = 'ok';
      };
      const server = await serveKoa(version, [middleware, ok]);
      try {
        await send(server, { path: '/a' });
        assert.deepEqual(await capture.waitFor(2), ['<-- GET /a', 'GET /a 200']);
      } finally {
        await server.close();
      }
    });

    test('has 500 for an error thrown downstream without a status', async () => {
      const line = await lineFor(version, ':status :res[content-length]', async () => {
        throw new Error('boom');
      });
      // Koa's answer: "Internal Server Error", 21 bytes.
      assert.equal(line, '500 21');
    });

    test('names the error thrown downstream in :error-type', async () => {
      const line = await lineFor(version, ':error-type', (ctx) => ctx.throw(409));
      // http-errors (Koa's ctx.throw) gives no `type`: the class name is used.
      assert.equal(line, 'ConflictError');
    });

    test('names the error thrown downstream in the json format', async () => {
      const line = await lineFor(version, 'json', async () => {
        throw Object.assign(new Error('quota'), { status: 429, type: 'quota.exceeded' });
      });
      const record = JSON.parse(line) as Record<string, unknown>;
      assert.equal(record['http.response.status_code'], 429);
      assert.equal(record['error.type'], 'quota.exceeded');
    });

    test("gives malformed JSON's message without the body, which Koa's answer quotes", async () => {
      const capture = captureLines();
      const server = await serveKoa(version, [
        koa.logger(':error-message', { stream: capture.stream }),
        koa.json(),
        async (ctx) => {
          ctx.body = 'ok';
        },
      ]);
      try {
        const reply = await send(server, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: 'hunter2',
        });
        assert.equal(reply.status, 400);
        assert.match(reply.text, /hunter2/);
        assert.deepEqual(await capture.waitFor(1), ['invalid JSON']);
      } finally {
        await server.close();
      }
    });

    test("is Koa's 404 when nothing answers", async () => {
      const line = await lineFor(version, ':status', async () => {});
      assert.equal(line, '404');
    });

    test('has what the application wrote itself with ctx.respond = false', async () => {
      const line = await lineFor(version, ':status :res[content-length]', async (ctx) => {
        ctx.respond = false;
        ctx.res.statusCode = 202;
        ctx.res.setHeader('content-length', '4');
        ctx.res.end('done');
      });
      assert.equal(line, '202 4');
    });

    test('has the status and length of the body Koa sends after the chain returned', async () => {
      const line = await lineFor(version, ':status :res[content-length]', async (ctx) => {
        ctx.status = 201;
        ctx.body = { id: 7 };
      });
      assert.equal(line, '201 8');
    });

    test('uses tokens defined through httpware/logger (one registry)', async () => {
      logger.token('koa-test-route', (req) => `route:${req.url}`);
      const line = await lineFor(version, ':koa-test-route', async () => {}, '/a?b=1');
      assert.equal(line, 'route:/a?b=1');
    });

    test('is written before the response with immediate', async () => {
      const capture: LineCapture = captureLines();
      let seen: readonly string[] = [];
      const server = await serveKoa(version, [
        koa.logger(':method :url', { stream: capture.stream, immediate: true }),
        async (ctx) => {
          seen = [...capture.lines];
          ctx.body = 'ok';
        },
      ]);
      try {
        await send(server, { path: '/now' });
        assert.deepEqual(seen, ['GET /now']);
      } finally {
        await server.close();
      }
    });

    test('is written once for a client that leaves before the answer', async () => {
      const capture = captureLines();
      let arrived!: () => void;
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const server = await serveKoa(version, [
        koa.logger(':method :url :status', { stream: capture.stream }),
        async (ctx) => {
          arrived();
          if (ctx.path === '/left') await once(ctx.req.socket, 'close');
          ctx.body = 'ok';
        },
      ]);
      try {
        const socket = net.connect(server.port, '127.0.0.1');
        socket.write('GET /left HTTP/1.1\r\nHost: x\r\n\r\n');
        await arrival;
        socket.destroy();
        await capture.waitFor(1);
        // A later request's line comes second: the one that left was logged once.
        await send(server, { path: '/after' });
        const lines = await capture.waitFor(2);
        assert.deepEqual(
          lines.map((line) => line.split(' ')[1]),
          ['/left', '/after'],
        );
      } finally {
        await server.close();
      }
    });

    test('is not written for a request skip refuses', async () => {
      const capture = captureLines();
      const server = await serveKoa(version, [
        koa.logger(':url', { stream: capture.stream, skip: (req) => req.url === '/health' }),
        async (ctx) => {
          ctx.body = 'ok';
        },
      ]);
      try {
        await send(server, { path: '/health' });
        await send(server, { path: '/work' });
        assert.deepEqual(await capture.waitFor(1), ['/work']);
      } finally {
        await server.close();
      }
    });
  });
}

test('a bad logger option throws at creation, not per request', () => {
  assert.throws(() => koa.logger('tiny', { stream: 42 as never }), TypeError);
});
