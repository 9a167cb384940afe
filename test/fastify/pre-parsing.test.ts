// httpwareParsers reads the stream a `preParsing` hook puts in the request's place (what
// Fastify hands a content-type parser), as @fastify/compress's request decompression does:
// the hook pipes `request.raw` through a stream of its own and returns that.
import assert from 'node:assert/strict';
import { PassThrough, Readable, Transform } from 'node:stream';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import type { FastifyInstance, preParsingHookHandler } from 'fastify';
import { type FastifyParsersOptions, httpwareParsers } from '../../src/fastify/index.js';
import { echoRoute, errorsSeen, postOnce } from '../helpers/fastify.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** The request decompression pattern: a gzip body piped through a gunzip stream. */
const gunzipHook: preParsingHookHandler = async (request, _reply, payload) =>
  request.headers['content-encoding'] === 'gzip' ? payload.pipe(zlib.createGunzip()) : payload;

function withHook(
  hook: preParsingHookHandler,
  options: FastifyParsersOptions = {},
  also: (app: FastifyInstance) => void = () => {},
) {
  return (app: FastifyInstance) => {
    app.addHook('preParsing', hook);
    app.register(httpwareParsers, options);
    echoRoute(app);
    also(app);
  };
}

describe('httpwareParsers and a preParsing hook that replaces the payload', () => {
  it('reads the stream the hook returns (a body it decompresses), not request.raw', async () => {
    const { reply, json } = await postOnce(withHook(gunzipHook), {
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: zlib.gzipSync('{"a":1}'),
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(json, { body: { a: 1 } });
  });

  it('reads a body the hook passes through unchanged (a PassThrough)', async () => {
    const { json } = await postOnce(
      withHook(async (_request, _reply, payload) => payload.pipe(new PassThrough())),
      { headers: JSON_TYPE, body: '{"b":2}' },
    );
    assert.deepEqual(json, { body: { b: 2 } });
  });

  it("holds the hook's stream to the limit: a body it inflates past the limit is a 413", async () => {
    const { reply, json } = await postOnce(withHook(gunzipHook, { json: { limit: 1024 } }), {
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: zlib.gzipSync(JSON.stringify({ pad: 'x'.repeat(10_000) })),
    });
    assert.equal(reply.status, 413);
    assert.equal(json.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('refuses a Content-Length over the limit before reading the stream', async () => {
    const { reply } = await postOnce(
      withHook(
        async (_request, _reply, payload) => {
          payload.resume(); // the stream stands for it, shorter than the limit
          return Readable.from([Buffer.from('short')]);
        },
        { text: { limit: 100 } },
      ),
      { headers: { 'content-type': 'text/plain' }, body: 'z'.repeat(200) },
    );
    assert.equal(reply.status, 413);
  });

  it('takes strings from a stream that pushes them, as UTF-8', async () => {
    const { json } = await postOnce(
      withHook(async (_request, _reply, payload) => {
        payload.resume(); // what the client sent is left unread
        return Readable.from(['{"c":', '"é"}']);
      }),
      { headers: JSON_TYPE, body: '{}' },
    );
    assert.deepEqual(json, { body: { c: 'é' } });
  });

  it("counts a stream's strings against the limit in UTF-8 bytes", async () => {
    const { reply } = await postOnce(
      withHook(
        async (_request, _reply, payload) => {
          payload.resume();
          return Readable.from(['ééé']); // 3 characters, 6 bytes
        },
        { text: { limit: 5 } },
      ),
      { headers: { 'content-type': 'text/plain' }, body: 'x' },
    );
    assert.equal(reply.status, 413);
  });

  /**
   * A hook whose stream fails at the `failAt`th chunk with a 422 of its own, having its own
   * `error` listener, as @fastify/compress's decompressor has.
   */
  const failingHook =
    (failAt: number): preParsingHookHandler =>
    async (_request, _reply, payload) => {
      let chunks = 0;
      const stream = new Transform({
        transform(chunk, _encoding, callback) {
          chunks += 1;
          if (chunks < failAt) callback(null, chunk);
          else
            callback(Object.assign(new Error('corrupt body'), { statusCode: 422, code: 'MINE' }));
        },
      });
      stream.on('error', () => {});
      return payload.pipe(stream);
    };

  it("answers with the status of an error the hook's stream emits while it is read", async () => {
    const { reply, json } = await postOnce(withHook(failingHook(2)), {
      headers: JSON_TYPE,
      body: ['{"a":', '1}'],
      chunkDelayMs: 50,
    });
    assert.equal(reply.status, 422);
    assert.equal(json.code, 'MINE');
  });

  it("answers with the status of an error the hook's stream had before it was read", async () => {
    const { reply, json } = await postOnce(withHook(failingHook(1)), {
      headers: JSON_TYPE,
      body: '{"a":1}',
    });
    assert.equal(reply.status, 422);
    assert.equal(json.code, 'MINE');
  });

  it("answers an error of the hook's stream whose statusCode is not a number as a 400", async () => {
    const { reply } = await postOnce(
      withHook(async (_request, _reply, payload) => {
        payload.resume();
        return new Readable({
          read() {
            this.destroy(Object.assign(new Error('teapot?'), { statusCode: '418' }));
          },
        });
      }),
      { headers: JSON_TYPE, body: '{}' },
    );
    assert.equal(reply.status, 400);
  });

  it("answers an error of the hook's stream without a status as a 400 entity.inflate.failed", async () => {
    let seen: Record<string, unknown>[] = [];
    const { reply } = await postOnce(
      withHook(
        async (_request, _reply, payload) => payload.pipe(zlib.createGunzip()),
        {},
        (app) => {
          seen = errorsSeen(app);
        },
      ),
      { headers: JSON_TYPE, body: 'not gzip at all' },
    );
    assert.equal(reply.status, 400);
    assert.equal(seen[0]?.type, 'entity.inflate.failed');
  });
});
