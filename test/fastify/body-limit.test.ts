// httpwareParsers under Fastify's bodyLimit: the server's (`Fastify({ bodyLimit })`, 1 MiB by
// default) or a route's (its `bodyLimit` option) is the limit of a parser that sets none, and
// caps one that sets a higher `limit`; like `limit`, it counts the bytes after inflation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { type FastifyParsersOptions, httpwareParsers } from '../../src/fastify/index.js';
import { echoRoute, postOnce } from '../helpers/fastify.js';

const JSON_TYPE = { 'content-type': 'application/json' };
/** A JSON body of about `bytes` bytes. */
const jsonOf = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });

function app(options: FastifyParsersOptions, routeBodyLimit?: number) {
  return (instance: Parameters<typeof echoRoute>[0]) => {
    instance.register(httpwareParsers, options);
    echoRoute(instance, routeBodyLimit === undefined ? {} : { bodyLimit: routeBodyLimit });
  };
}

describe("httpwareParsers and Fastify's bodyLimit", () => {
  it("refuses a body over a route's bodyLimit lower than the parser's limit (413)", async () => {
    const { reply, json } = await postOnce(app({ json: { limit: '1mb' } }, 1024), {
      headers: JSON_TYPE,
      body: jsonOf(10_000),
    });
    assert.equal(reply.status, 413);
    assert.equal(json.code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it("refuses a body over the server's bodyLimit lower than the parser's limit (413)", async () => {
    const { reply } = await postOnce(
      app({ json: { limit: '1mb' } }),
      { headers: JSON_TYPE, body: jsonOf(10_000) },
      { bodyLimit: 1024 },
    );
    assert.equal(reply.status, 413);
  });

  it("refuses a chunked body growing past a route's bodyLimit", async () => {
    const { reply } = await postOnce(app({}, 1024), {
      headers: JSON_TYPE,
      body: [jsonOf(10_000).slice(0, 800), jsonOf(10_000).slice(800)],
    });
    assert.equal(reply.status, 413);
  });

  it("counts a route's bodyLimit after inflation: a small gzip body that inflates past it is a 413", async () => {
    const body = zlib.gzipSync(jsonOf(10_000));
    assert.ok(body.length < 1024);
    const { reply } = await postOnce(app({}, 1024), {
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body,
    });
    assert.equal(reply.status, 413);
  });

  it("without a limit of its own, a parser takes a body up to Fastify's 1 MiB default, past httpware's 100kb", async () => {
    const { reply, json } = await postOnce(app({}), {
      headers: JSON_TYPE,
      body: jsonOf(500_000),
    });
    assert.equal(reply.status, 200);
    assert.equal(JSON.stringify(json.body).length, 500_000);
  });

  it("a parser's limit lower than bodyLimit is the limit", async () => {
    const { reply } = await postOnce(app({ text: { limit: 100 } }), {
      headers: { 'content-type': 'text/plain' },
      body: 'y'.repeat(200),
    });
    assert.equal(reply.status, 413);
  });

  it("a route's bodyLimit higher than the server's is the limit of a parser without one", async () => {
    const { reply } = await postOnce(
      app({}, 20_000),
      { headers: JSON_TYPE, body: jsonOf(10_000) },
      { bodyLimit: 1024 },
    );
    assert.equal(reply.status, 200);
  });
});
