// Fastify over HTTP/2: `fastify({ http2: true })` (node:http2's compatibility API, in the
// clear), reached with node:http2's client. request.raw and reply.raw are then
// Http2ServerRequest and Http2ServerResponse, which the plugins take as they are.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { httpwareLogger, httpwareParsers } from '../../src/fastify/index.js';
import { send } from '../helpers/client.js';
import { captureLines } from '../helpers/lines.js';
import { ITEM, postThenGet } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

/** An HTTP/2 app with both plugins, the line in `format`, echoing the body at POST /items. */
async function startH2(format: string) {
  const capture = captureLines();
  const app = Fastify({ http2: true, logger: false });
  app.register(httpwareLogger, { format, stream: capture.stream });
  app.register(httpwareParsers);
  app.post('/items', async (request) => ({ received: request.body }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const server = { origin: `http://127.0.0.1:${port}`, transport: 'h2c' } as const;
  return { app, capture, server };
}

describe('Fastify over HTTP/2', () => {
  it('parses a JSON body and writes one line per request', async () => {
    const { app, capture, server } = await startH2(':method :url :status :http-version');
    try {
      assert.deepEqual(await postThenGet(server), { received: ITEM });
      assert.deepEqual(await capture.waitFor(2), ['POST /items 200 2.0', 'GET /after 404 2.0']);
    } finally {
      await app.close();
    }
  });

  it("answers malformed JSON with the parser's 400, whose Connection: close Node drops", async () => {
    const { app, capture, server } = await startH2(':status :error-type');
    try {
      const reply = await send(server, {
        method: 'POST',
        path: '/items',
        headers: { 'content-type': 'application/json' },
        body: '{"sku":',
      });
      assert.equal(reply.status, 400);
      assert.equal(JSON.parse(reply.text).code, 'FST_ERR_CTP_INVALID_JSON_BODY');
      assert.deepEqual(await capture.waitFor(1), ['400 entity.parse.failed']);
      // Fastify sets it after any content-type parser's error; HTTP/2 has no such header, and
      // Node warns that it dropped it (emitted with the head, delivered before the line).
      const dropped = warnings.all().filter((warning) => warning.name === 'UnsupportedWarning');
      assert.match(String(dropped[0]?.message), /connection header/);
    } finally {
      await app.close();
    }
  });
});
