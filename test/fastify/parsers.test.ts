// httpwareParsers on Fastify 5: bodies read by httpware's pipeline off request.raw, errors
// answered by Fastify's default error handler.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type FastifyParsersOptions, httpwareParsers } from '../../src/fastify/index.js';
import { hasZstd } from '../../src/parsers/inflate.js';
import { type FastifyTestServer, startFastify } from '../helpers/fastify.js';
import { abandon, type Reply, type SendOptions, send } from '../helpers/index.js';

/** An app with the plugin at its root and `POST /` answering `{ body }` (a Buffer as hex). */
async function parsingServer(
  options: FastifyParsersOptions = {},
  extra: (app: FastifyInstance) => void = () => {},
): Promise<FastifyTestServer> {
  return startFastify((app) => {
    app.register(httpwareParsers, options);
    app.post('/', async (request) => {
      const body = request.body;
      return { body: Buffer.isBuffer(body) ? `hex:${body.toString('hex')}` : body };
    });
    extra(app);
  });
}

async function post(
  options: FastifyParsersOptions,
  request: SendOptions,
): Promise<{ reply: Reply; json: Record<string, unknown> }> {
  const server = await parsingServer(options);
  try {
    const reply = await send(server, { method: 'POST', path: '/', ...request });
    return { reply, json: JSON.parse(reply.text) as Record<string, unknown> };
  } finally {
    await server.close();
  }
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('httpwareParsers: bodies', () => {
  it('parses a JSON body', async () => {
    const { json } = await post({}, { headers: JSON_TYPE, body: '{"a":[1,2]}' });
    assert.deepEqual(json, { body: { a: [1, 2] } });
  });

  it('parses an urlencoded body', async () => {
    const { json } = await post(
      { urlencoded: { extended: true } },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a[b]=1&c=2' },
    );
    assert.deepEqual(json, { body: { a: { b: '1' }, c: '2' } });
  });

  it('decodes a text body in its declared charset', async () => {
    const { json } = await post(
      {},
      {
        headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
        body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      },
    );
    assert.deepEqual(json, { body: 'café' });
  });

  it('reads a raw body as a Buffer when raw is on', async () => {
    const { json } = await post(
      { raw: true },
      { headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([1, 2, 255]) },
    );
    assert.deepEqual(json, { body: 'hex:0102ff' });
  });

  it('leaves octet-stream to no parser while raw is off (415)', async () => {
    const { reply } = await post(
      {},
      { headers: { 'content-type': 'application/octet-stream' }, body: 'x' },
    );
    assert.equal(reply.status, 415);
  });

  it("takes a type option's wildcard", async () => {
    const { json } = await post(
      { json: { type: ['application/*+json'] } },
      { headers: { 'content-type': 'application/vnd.api+json' }, body: '{"v":1}' },
    );
    assert.deepEqual(json, { body: { v: 1 } });
  });

  for (const [coding, compress] of [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const) {
    it(`inflates a ${coding} body`, async () => {
      const { json } = await post(
        {},
        {
          headers: { ...JSON_TYPE, 'content-encoding': coding },
          body: compress(Buffer.from('{"zipped":true}')),
        },
      );
      assert.deepEqual(json, { body: { zipped: true } });
    });
  }

  it('inflates a zstd body where zlib has zstd', { skip: !hasZstd }, async () => {
    const compress = (zlib as unknown as { zstdCompressSync: (b: Buffer) => Buffer })
      .zstdCompressSync;
    const { json } = await post(
      {},
      {
        headers: { ...JSON_TYPE, 'content-encoding': 'zstd' },
        body: compress(Buffer.from('{"zstd":1}')),
      },
    );
    assert.deepEqual(json, { body: { zstd: 1 } });
  });
});

describe('httpwareParsers: limits', () => {
  it('counts the limit on inflated bytes: a small gzip body that inflates past it is a 413', async () => {
    const inflated = JSON.stringify({ pad: 'x'.repeat(4096) });
    const body = zlib.gzipSync(inflated);
    assert.ok(body.length < 1024);
    const { reply, json } = await post(
      { json: { limit: '1kb' } },
      { headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body },
    );
    assert.equal(reply.status, 413);
    assert.equal(json.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });
});

describe("httpwareParsers: errors in Fastify's conventions", () => {
  it("answers a parse error with Fastify's error body: statusCode, Fastify's code and message", async () => {
    const { reply, json } = await post({}, { headers: JSON_TYPE, body: '{"a":' });
    assert.equal(reply.status, 400);
    assert.equal(json.statusCode, 400);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.equal(typeof json.message, 'string');
  });

  it('closes the connection after a refused body', async () => {
    const { reply } = await post({}, { headers: JSON_TYPE, body: '{"a":' });
    assert.equal(reply.headers.connection, 'close');
  });

  it('refuses a prototype key', async () => {
    const { reply, json } = await post(
      {},
      { headers: JSON_TYPE, body: '{"constructor":{"prototype":{"x":1}}}' },
    );
    assert.equal(reply.status, 400);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it('answers a schema failure with 422', async () => {
    const { reply, json } = await post(
      { json: { schema: z.object({ id: z.number() }) } },
      { headers: JSON_TYPE, body: '{"id":"x"}' },
    );
    assert.equal(reply.status, 422);
    assert.equal(json.code, 'entity.validation.failed');
  });

  it("hands the handler the schema's output", async () => {
    const { json } = await post(
      { json: { schema: z.object({ id: z.coerce.number() }) } },
      { headers: JSON_TYPE, body: '{"id":"7","extra":1}' },
    );
    assert.deepEqual(json, { body: { id: 7 } });
  });

  it('a Content-Type no parser takes is a 415', async () => {
    const { reply, json } = await post({}, { headers: { 'content-type': 'image/png' }, body: 'x' });
    assert.equal(reply.status, 415);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  it('a bad option fails the registration with its TypeError', async () => {
    await assert.rejects(parsingServer({ json: { limit: 'lots' } }), TypeError);
  });
});

describe('httpwareParsers: verify', () => {
  const secret = 'shh';
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('hex');
  const verify = (req: { headers: Record<string, unknown> }, _res: unknown, buf: Buffer) => {
    if (req.headers['x-signature'] !== sign(buf.toString())) throw new Error('bad signature');
  };

  it('passes a body verify accepts', async () => {
    const body = '{"ok":true}';
    const { json } = await post(
      { json: { verify } },
      { headers: { ...JSON_TYPE, 'x-signature': sign(body) }, body },
    );
    assert.deepEqual(json, { body: { ok: true } });
  });

  it('answers a body verify refuses with 403', async () => {
    const { reply, json } = await post(
      { json: { verify } },
      { headers: { ...JSON_TYPE, 'x-signature': 'forged' }, body: '{"ok":true}' },
    );
    assert.equal(reply.status, 403);
    assert.equal(json.code, 'entity.verify.failed');
  });
});

describe('httpwareParsers: aborts and scope', () => {
  it('a client that leaves mid-body reaches the error hooks as request.aborted', async () => {
    let resolveType: (type: unknown) => void = () => {};
    const seen = new Promise((resolve) => {
      resolveType = resolve;
    });
    const server = await parsingServer({}, (app) => {
      app.addHook('onError', async (_request, _reply, err) => {
        resolveType((err as { type?: unknown }).type);
      });
    });
    try {
      await abandon(server as never, { when: 'body', path: '/' });
      assert.equal(await seen, 'request.aborted');
    } finally {
      await server.close();
    }
  });

  it("registered in a child context, parses only that context's routes", async () => {
    const server = await startFastify((app) => {
      app.post('/outside', async (request) => ({ body: request.body ?? null }));
      app.register(async (child) => {
        await child.register(httpwareParsers, { json: { limit: 10 } });
        child.post('/inside', async (request) => ({ body: request.body }));
      });
    });
    try {
      const body = JSON.stringify({ long: 'a'.repeat(20) });
      const outside = await send(server, {
        method: 'POST',
        path: '/outside',
        headers: JSON_TYPE,
        body,
      });
      const inside = await send(server, {
        method: 'POST',
        path: '/inside',
        headers: JSON_TYPE,
        body,
      });
      // Fastify's own JSON parser outside; ours (with its 10-byte limit) inside.
      assert.deepEqual([outside.status, inside.status], [200, 413]);
    } finally {
      await server.close();
    }
  });
});
