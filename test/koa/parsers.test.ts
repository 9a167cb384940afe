import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { koa } from '../../src/index.js';
import { abandon, send } from '../helpers/client.js';
import { type KoaMiddleware, type KoaVersion, koaVersions, serveKoa } from '../helpers/koa.js';

// The parsers as Koa middleware: what they set on ctx.request, and the errors they throw as
// Koa's own error handling answers them (the status; the message for a 4xx, Koa's status text
// for a 5xx).

/** Answers what the parser left on ctx.request, as JSON (a Buffer as hex). */
const echo: KoaMiddleware = async (ctx) => {
  const { body, rawBody } = ctx.request as { body?: unknown; rawBody?: unknown };
  ctx.body = {
    body: Buffer.isBuffer(body) ? `hex:${body.toString('hex')}` : (body ?? null),
    rawBody: Buffer.isBuffer(rawBody) ? rawBody.toString() : (rawBody ?? null),
  };
};

async function exchange(
  version: KoaVersion,
  middleware: readonly KoaMiddleware[],
  request: Parameters<typeof send>[1],
) {
  const server = await serveKoa(version, [...middleware, echo]);
  try {
    const reply = await send(server, { method: 'POST', ...request });
    return { ...reply, errors: server.errors };
  } finally {
    await server.close();
  }
}

const JSON_TYPE = { 'content-type': 'application/json' };

for (const version of koaVersions) {
  describe(`${version}: the parsers`, () => {
    test('json sets ctx.request.body to the parsed JSON', async () => {
      const reply = await exchange(version, [koa.json()], {
        headers: JSON_TYPE,
        body: '{"a":[1,2]}',
      });
      assert.deepEqual(JSON.parse(reply.text).body, { a: [1, 2] });
    });

    test('urlencoded sets ctx.request.body to the form, nested with extended', async () => {
      const reply = await exchange(version, [koa.urlencoded({ extended: true })], {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'user[name]=ann&tag=a&tag=b',
      });
      assert.deepEqual(JSON.parse(reply.text).body, { user: { name: 'ann' }, tag: ['a', 'b'] });
    });

    test('text sets ctx.request.body to the decoded string', async () => {
      const reply = await exchange(version, [koa.text()], {
        headers: { 'content-type': 'text/plain; charset=latin1' },
        body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      });
      assert.equal(JSON.parse(reply.text).body, 'café');
    });

    test('raw sets ctx.request.body to the bytes', async () => {
      const reply = await exchange(version, [koa.raw()], {
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from([0, 1, 255]),
      });
      assert.equal(JSON.parse(reply.text).body, 'hex:0001ff');
    });

    test('rawBody: true sets ctx.request.rawBody to the exact bytes, inflated', async () => {
      const reply = await exchange(version, [koa.json({ rawBody: true })], {
        headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
        body: gzipSync('{ "a" : 1 }'),
      });
      assert.equal(JSON.parse(reply.text).rawBody, '{ "a" : 1 }');
    });

    test('without rawBody, ctx.request.rawBody is not set', async () => {
      const reply = await exchange(version, [koa.json()], { headers: JSON_TYPE, body: '{}' });
      assert.equal(JSON.parse(reply.text).rawBody, null);
    });

    test('another media type is passed over: no body, and the chain goes on', async () => {
      const reply = await exchange(version, [koa.json()], {
        headers: { 'content-type': 'text/plain' },
        body: '{"a":1}',
      });
      assert.equal(reply.status, 200);
      assert.equal(JSON.parse(reply.text).body, null);
    });

    test('legacyEmptyBody: true gives {} where nothing was parsed', async () => {
      const reply = await exchange(version, [koa.json({ legacyEmptyBody: true })], {
        method: 'GET',
      });
      assert.deepEqual(JSON.parse(reply.text).body, {});
    });

    test('ctx.disableBodyParser = true makes the parser pass over the request', async () => {
      const disable: KoaMiddleware = async (ctx, next) => {
        ctx.disableBodyParser = true;
        await next();
      };
      const reply = await exchange(version, [disable, koa.json()], {
        headers: JSON_TYPE,
        body: '{"a":1}',
      });
      assert.equal(JSON.parse(reply.text).body, null);
    });

    test('any truthy ctx.disableBodyParser (a string) makes the parser pass over the request', async () => {
      const disable: KoaMiddleware = async (ctx, next) => {
        ctx.disableBodyParser = '1';
        await next();
      };
      const reply = await exchange(version, [disable, koa.json()], {
        headers: JSON_TYPE,
        body: '{"a":1}',
      });
      assert.equal(JSON.parse(reply.text).body, null);
    });

    test('a second parser keeps the body the first one read', async () => {
      const reply = await exchange(version, [koa.json(), koa.text({ type: '*/*' })], {
        headers: JSON_TYPE,
        body: '{"first":true}',
      });
      assert.deepEqual(JSON.parse(reply.text).body, { first: true });
    });

    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      test(`a ${coding} body is inflated`, async () => {
        const reply = await exchange(version, [koa.json()], {
          headers: { ...JSON_TYPE, 'content-encoding': coding },
          body: encode('{"packed":"yes"}'),
        });
        assert.deepEqual(JSON.parse(reply.text).body, { packed: 'yes' });
      });
    }

    test('a body over the limit once inflated is a 413, with its message', async () => {
      const inflated = JSON.stringify({ pad: '0'.repeat(4096) });
      const reply = await exchange(version, [koa.json({ limit: '1kb' })], {
        headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
        body: gzipSync(inflated),
      });
      assert.deepEqual([reply.status, reply.text], [413, 'request entity too large']);
    });

    test('malformed JSON is a 400 whose message Koa sends (expose)', async () => {
      const reply = await exchange(version, [koa.json()], { headers: JSON_TYPE, body: '{"a":' });
      assert.equal(reply.status, 400);
      assert.match(reply.text, /JSON/);
    });

    test('the error thrown has status, statusCode, expose and type', async () => {
      const reply = await exchange(version, [koa.json()], { headers: JSON_TYPE, body: '[' });
      const [err] = reply.errors as Array<Record<string, unknown>>;
      assert.deepEqual(
        { status: err?.status, statusCode: err?.statusCode, expose: err?.expose, type: err?.type },
        { status: 400, statusCode: 400, expose: true, type: 'entity.parse.failed' },
      );
    });

    test("a 4xx error is emitted as Koa's 'error' event too", async () => {
      const reply = await exchange(version, [koa.json({ limit: 2 })], {
        headers: JSON_TYPE,
        body: '[1,2]',
      });
      assert.equal(reply.status, 413);
      assert.deepEqual(
        (reply.errors as Array<{ status?: unknown }>).map((err) => err.status),
        [413],
      );
    });

    test('a 5xx error is answered with the status text only (not exposed)', async () => {
      const setEncoding: KoaMiddleware = async (ctx, next) => {
        ctx.req.setEncoding('utf8');
        await next();
      };
      const reply = await exchange(version, [setEncoding, koa.json()], {
        headers: JSON_TYPE,
        body: '{}',
      });
      assert.deepEqual([reply.status, reply.text], [500, 'Internal Server Error']);
    });

    test('a verify that throws is a 403', async () => {
      const verify = () => {
        throw new Error('bad signature');
      };
      const reply = await exchange(version, [koa.json({ verify })], {
        headers: JSON_TYPE,
        body: '{}',
      });
      assert.deepEqual([reply.status, reply.text], [403, 'bad signature']);
    });

    test('a body the schema refuses is a 422', async () => {
      const schema = v.object({ id: v.number() });
      const reply = await exchange(version, [koa.json({ schema })], {
        headers: JSON_TYPE,
        body: '{"id":"seven"}',
      });
      assert.equal(reply.status, 422);
    });

    test("a body the schema accepts is the schema's output", async () => {
      const schema = v.object({ id: v.pipe(v.string(), v.transform(Number)) });
      const reply = await exchange(version, [koa.json({ schema })], {
        headers: JSON_TYPE,
        body: '{"id":"7","extra":1}',
      });
      assert.deepEqual(JSON.parse(reply.text).body, { id: 7 });
    });

    test('a client that leaves mid-body ends the chain with request.aborted', async () => {
      let caught: unknown;
      let failed!: () => void;
      const failure = new Promise<void>((resolve) => {
        failed = resolve;
      });
      const watch: KoaMiddleware = async (_ctx, next) => {
        try {
          await next();
        } catch (err) {
          caught = err;
          failed();
          throw err;
        }
      };
      let handled = false;
      const server = await serveKoa(version, [
        watch,
        koa.json(),
        async () => {
          handled = true;
        },
      ]);
      try {
        await abandon(server, { when: 'body' });
        await failure;
        assert.deepEqual(
          [(caught as { type?: unknown }).type, handled],
          ['request.aborted', false],
        );
      } finally {
        await server.close();
      }
    });
  });
}

test('a bad parser option throws its TypeError at creation', () => {
  assert.throws(() => koa.json({ limit: 'lots' }), TypeError);
});
