// A destination is a `stream` wherever one goes: the Node middleware (morgan's place), the
// fetch door, Koa and Fastify. Each writes its lines to a file through one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fastify, fetchLogger, koa, logger } from '../../src/index.js';
import { destinations, tempDir } from '../helpers/destination.js';
import { startFastify } from '../helpers/fastify.js';
import { serveFetch } from '../helpers/fetch.js';
import { startServer as startNodeServer } from '../helpers/index.js';
import { serveKoa } from '../helpers/koa.js';

const open = destinations();
const dir = tempDir();

/** Three requests to `origin`, then the file's lines once the destination is flushed. */
async function linesOf(origin: string, flush: () => Promise<void>, file: string) {
  for (const path of ['/a', '/b', '/c']) assert.equal((await fetch(origin + path)).status, 200);
  await flush();
  return readFileSync(file, 'utf8').trimEnd().split('\n');
}

describe('a destination as the stream of every door', () => {
  test('the Node middleware', async () => {
    const file = join(dir, 'node.log');
    const stream = open(file);
    const server = await startNodeServer({
      middleware: [logger(':method :url :status', { stream })],
      handler: (_req, res) => res.end('ok'),
    });
    const lines = await linesOf(server.origin, () => stream.flush(), file);
    await server.close();
    assert.deepEqual(lines, ['GET /a 200', 'GET /b 200', 'GET /c 200']);
  });

  test('fetchLogger', async () => {
    const file = join(dir, 'fetch.log');
    const stream = open(file);
    const handler = fetchLogger(':method :url :status', { stream })(() => new Response('ok'));
    const server = await serveFetch(handler);
    const lines = await linesOf(server.origin, () => stream.flush(), file);
    await server.close();
    assert.deepEqual(lines, ['GET /a 200', 'GET /b 200', 'GET /c 200']);
  });

  test('Koa', async () => {
    const file = join(dir, 'koa.log');
    const stream = open(file);
    const server = await serveKoa('koa3', [
      koa.logger(':method :url :status', { stream }),
      async (ctx) => {
        ctx.body = 'ok';
      },
    ]);
    const lines = await linesOf(server.origin, () => stream.flush(), file);
    await server.close();
    assert.deepEqual(lines, ['GET /a 200', 'GET /b 200', 'GET /c 200']);
  });

  test('Fastify', async () => {
    const file = join(dir, 'fastify.log');
    const stream = open(file);
    const server = await startFastify(async (app) => {
      await app.register(fastify.httpwareLogger, { format: ':method :url :status', stream });
      app.get('/*', async () => 'ok');
    });
    const lines = await linesOf(server.origin, () => stream.flush(), file);
    await server.close();
    assert.deepEqual(lines, ['GET /a 200', 'GET /b 200', 'GET /c 200']);
  });
});
