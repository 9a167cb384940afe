// Koa over HTTP/2: `app.callback()` on node:http2's `createServer` (the compatibility API, in
// the clear), reached with node:http2's client. ctx.req and ctx.res are then
// Http2ServerRequest and Http2ServerResponse, which the Node middleware takes as they are.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import { send, sendPartial } from '../helpers/client.js';
import { type KoaMiddleware, koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines } from '../helpers/lines.js';
import { ITEM, postThenGet } from '../helpers/logger.js';

const echo: KoaMiddleware = async (ctx) => {
  ctx.body = { received: (ctx.request as { body?: unknown }).body ?? null };
};

for (const version of koaVersions) {
  describe(`${version} over HTTP/2`, () => {
    test('parses a JSON body and writes one line per request', async () => {
      const capture = captureLines();
      const server = await serveKoa(
        version,
        [
          koa.logger(':method :url :status :http-version', { stream: capture.stream }),
          koa.json(),
          echo,
        ],
        undefined,
        'h2c',
      );
      try {
        assert.deepEqual(await postThenGet(server), { received: ITEM });
        assert.deepEqual(await capture.waitFor(2), ['POST /items 200 2.0', 'GET /after 200 2.0']);
      } finally {
        await server.close();
      }
    });

    test('bodyParser reads a JSON body and its text over HTTP/2', async () => {
      const rawText: KoaMiddleware = async (ctx) => {
        ctx.body = { raw: (ctx.request as { rawBody?: unknown }).rawBody ?? null };
      };
      const server = await serveKoa(version, [koa.bodyParser(), rawText], undefined, 'h2c');
      try {
        const reply = await send(server, {
          method: 'POST',
          headers: { 'content-type': 'application/vnd.api+json' },
          body: '{"data":1}',
        });
        assert.deepEqual(JSON.parse(reply.text), { raw: '{"data":1}' });
      } finally {
        await server.close();
      }
    });

    test("answers malformed JSON with Koa's 400 and records it on the line", async () => {
      const capture = captureLines();
      const server = await serveKoa(
        version,
        [koa.logger(':status :error-type', { stream: capture.stream }), koa.json(), echo],
        undefined,
        'h2c',
      );
      try {
        const reply = await send(server, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"sku":',
        });
        assert.equal(reply.status, 400);
        assert.match(reply.headers['content-type'] as string, /^text\/plain/);
        assert.deepEqual(await capture.waitFor(1), ['400 entity.parse.failed']);
      } finally {
        await server.close();
      }
    });

    test('answers a body given up on with its 413, then closes the stream', async () => {
      const capture = captureLines();
      const server = await serveKoa(
        version,
        [koa.logger(':status', { stream: capture.stream }), koa.json({ limit: 10 }), echo],
        undefined,
        'h2c',
      );
      try {
        const reply = await sendPartial(server, {
          headers: { 'content-type': 'application/json', 'content-length': 5 * 1024 * 1024 },
          body: ['[1,2,3,'],
        });
        assert.deepEqual(
          [reply.status, reply.text, reply.ended],
          [413, 'request entity too large', 'closed'],
        );
        assert.deepEqual(await capture.waitFor(1), ['413']);
      } finally {
        await server.close();
      }
    });
  });
}
