// httpwareParsers leaves no body to Fastify's own JSON and text parsers in its context: theirs
// count bodyLimit on the bytes received and know no Content-Encoding, so a body that reached
// them would skip httpware's limits, inflation and prototype-key checks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { httpwareParsers } from '../../src/fastify/index.js';
import { startFastify } from '../helpers/fastify.js';
import { send } from '../helpers/index.js';

describe("httpwareParsers and Fastify's own parsers", () => {
  for (const [type, body] of [
    ['application/json', '{"a":1}'],
    ['text/plain', 'hello'],
  ] as const) {
    it(`with every parser of ours off, a ${type} body is refused, not parsed by Fastify's`, async () => {
      const server = await startFastify((app) => {
        app.register(httpwareParsers, { json: false, urlencoded: false, text: false, raw: true });
        app.post('/', async (request) => ({ body: request.body ?? null }));
      });
      try {
        const reply = await send(server, {
          method: 'POST',
          path: '/',
          headers: { 'content-type': type },
          body,
        });
        assert.equal(reply.status, 415);
      } finally {
        await server.close();
      }
    });
  }

  it('with every parser off, a body is refused (415), never passed on unread', async () => {
    const server = await startFastify((app) => {
      app.register(httpwareParsers, { json: false, urlencoded: false, text: false });
      app.post('/', async (request) => ({ body: request.body ?? null }));
    });
    try {
      const reply = await send(server, {
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      assert.equal(reply.status, 415);
    } finally {
      await server.close();
    }
  });

  it('a compressed JSON body is inflated and limited by ours, never handed on', async () => {
    const server = await startFastify((app) => {
      app.register(httpwareParsers, { json: { limit: 64 } });
      app.post('/', async (request) => ({ body: request.body ?? null }));
    });
    try {
      const reply = await send(server, {
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: zlib.gzipSync(JSON.stringify({ pad: '0'.repeat(10_000) })),
      });
      assert.equal(reply.status, 413);
    } finally {
      await server.close();
    }
  });
});
