// httpwareParsers leaves no body of a type its parsers take to Fastify's own JSON and text
// parsers: theirs know no Content-Encoding, so a body that reached them would skip httpware's
// inflated-bytes limit. And a preParsing hook's stream that fails once the body was refused is
// not an exception of the process.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { httpwareParsers } from '../../src/fastify/index.js';
import { echoRoute, postOnce } from '../helpers/fastify.js';

describe("httpwareParsers and Fastify's own parsers", () => {
  for (const [type, text] of [
    ['application/json', JSON.stringify({ pad: '0'.repeat(10_000) })],
    ['text/plain', '0'.repeat(10_000)],
  ] as const) {
    it(`a compressed ${type} body is inflated and limited by ours, never handed on`, async () => {
      const { reply } = await postOnce(
        (app) => {
          app.register(httpwareParsers, { json: { limit: 64 }, text: { limit: 64 } });
          echoRoute(app);
        },
        {
          headers: { 'content-type': type, 'content-encoding': 'gzip' },
          body: zlib.gzipSync(text),
        },
      );
      assert.equal(reply.status, 413);
    });
  }
});

describe("httpwareParsers and a preParsing hook's stream", () => {
  it('a stream that fails after its body was refused (no error listener of its own) crashes nothing', async () => {
    let failLater: () => void = () => {};
    const { reply } = await postOnce(
      (app) => {
        app.addHook('preParsing', async (_request, _reply, payload) => {
          payload.resume();
          const stream = new Readable({ read() {} });
          stream.push('x'.repeat(100)); // over the limit: refused at once
          failLater = () => stream.destroy(new Error('late failure'));
          return stream;
        });
        app.register(httpwareParsers, { json: { limit: 10 } });
        echoRoute(app);
      },
      { headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    assert.equal(reply.status, 413);
    let crashed: unknown = 'none';
    const onCrash = (err: unknown) => {
      crashed = err;
    };
    process.once('uncaughtException', onCrash);
    try {
      failLater();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.removeListener('uncaughtException', onCrash);
    }
    assert.equal(crashed, 'none');
  });
});
