// httpwareParsers beside the content-type parsers already there: the application's own are
// never removed (before or after the plugin), and Fastify's built-in JSON and text parsers give
// way only to a parser of ours that takes their type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type FastifyParsersOptions, httpwareParsers } from '../../src/fastify/index.js';
import { echoRoute, postOnce } from '../helpers/fastify.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const GZIPPED_JSON = zlib.gzipSync('{"a":1}');

/** A parser of the application's own for `type`, which answers `{ mine: <the text> }`. */
function addOwnParser(app: FastifyInstance, type: string): void {
  app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
    done(null, { mine: body });
  });
}

/** The plugin with `options` at the root of an app whose `build` ran first, and POST /. */
function withPlugin(
  options: FastifyParsersOptions,
  build: (app: FastifyInstance) => void = () => {},
) {
  return (app: FastifyInstance) => {
    build(app);
    app.register(httpwareParsers, options);
    echoRoute(app);
  };
}

describe("httpwareParsers keeps the application's own parsers", () => {
  it('keeps an application/json parser registered before it', async () => {
    const { json } = await postOnce(
      withPlugin({}, (app) => addOwnParser(app, 'application/json')),
      { headers: JSON_TYPE, body: '{"a":1}' },
    );
    assert.deepEqual(json, { body: { mine: '{"a":1}' } });
  });

  it('keeps a text/plain parser registered before it', async () => {
    const { json } = await postOnce(
      withPlugin({}, (app) => addOwnParser(app, 'text/plain')),
      { headers: { 'content-type': 'text/plain' }, body: 'hello' },
    );
    assert.deepEqual(json, { body: { mine: 'hello' } });
  });

  it('keeps an application/json parser registered before it with json: false', async () => {
    const { json } = await postOnce(
      withPlugin({ json: false }, (app) => addOwnParser(app, 'application/json')),
      { headers: JSON_TYPE, body: '{"a":1}' },
    );
    assert.deepEqual(json, { body: { mine: '{"a":1}' } });
  });

  it('lets the application add an application/json parser once the plugin is loaded', async () => {
    const { json } = await postOnce(
      async (app) => {
        await app.register(httpwareParsers);
        addOwnParser(app, 'application/json');
        echoRoute(app);
      },
      { headers: JSON_TYPE, body: '{"a":1}' },
    );
    assert.deepEqual(json, { body: { mine: '{"a":1}' } });
  });

  it("beside the application's catch-all parser, takes its own types and leaves it the rest", async () => {
    const build = withPlugin({}, (app) => addOwnParser(app, '*'));
    const ours = await postOnce(build, { headers: JSON_TYPE, body: '{"a":1}' });
    assert.deepEqual(ours.json, { body: { a: 1 } });
    const theirs = await postOnce(build, { headers: { 'content-type': 'image/png' }, body: 'x' });
    assert.deepEqual(theirs.json, { body: { mine: 'x' } });
  });

  it("fails the registration beside the application's catch-all when a type is a wildcard, rather than replace it", async () => {
    await assert.rejects(
      postOnce(
        withPlugin({ json: { type: 'application/*+json' } }, (app) => addOwnParser(app, '*')),
        { headers: JSON_TYPE, body: '{}' },
      ),
      /already has a catch-all content-type parser/,
    );
  });

  it("a parent context's catch-all parser is the child's: the child's registration keeps it", async () => {
    const build = (app: FastifyInstance) => {
      addOwnParser(app, '*');
      app.register(async (child) => {
        await child.register(httpwareParsers);
        echoRoute(child);
      });
    };
    const theirs = await postOnce(build, { headers: { 'content-type': 'image/png' }, body: 'x' });
    assert.deepEqual(theirs.json, { body: { mine: 'x' } });
  });
});

describe("httpwareParsers and Fastify's built-in parsers", () => {
  it("with json: false, leaves application/json to Fastify's own parser", async () => {
    const { reply, json } = await postOnce(withPlugin({ json: false }), {
      headers: JSON_TYPE,
      body: '{"a":1}',
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(json, { body: { a: 1 } });
  });

  it("with text: false, leaves text/plain to Fastify's own parser", async () => {
    const { json } = await postOnce(withPlugin({ text: false }), {
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    assert.deepEqual(json, { body: 'hello' });
  });

  it("with every parser off, leaves JSON to Fastify's parser and adds no catch-all (its 415)", async () => {
    const off = { json: false, urlencoded: false, text: false } as const;
    const parsed = await postOnce(withPlugin(off), { headers: JSON_TYPE, body: '{"a":1}' });
    assert.deepEqual(parsed.json, { body: { a: 1 } });
    const refused = await postOnce(withPlugin(off), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    assert.equal(refused.reply.status, 415);
    assert.equal(refused.json.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  it("a json parser whose type leaves application/json out leaves it to Fastify's parser", async () => {
    // Fastify's parser knows no Content-Encoding: a gzip body is invalid JSON to it.
    const { reply, json } = await postOnce(
      withPlugin({ json: { type: 'application/vnd.api+json' } }),
      { headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: GZIPPED_JSON },
    );
    assert.equal(reply.status, 400);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it("a parser of ours whose type takes application/json replaces Fastify's for it", async () => {
    const { json } = await postOnce(withPlugin({ json: false, raw: { type: '*/*' } }), {
      headers: JSON_TYPE,
      body: '{"a":1}',
    });
    // raw's Buffer, as JSON.
    assert.deepEqual(json, { body: { type: 'Buffer', data: [...Buffer.from('{"a":1}')] } });
  });

  it("a parser of ours with a type function counts as taking every type: Fastify's give way", async () => {
    const { json } = await postOnce(withPlugin({ json: false, text: { type: () => true } }), {
      headers: JSON_TYPE,
      body: '{"a":1}',
    });
    // text's string, not Fastify's parsed object.
    assert.deepEqual(json, { body: '{"a":1}' });
  });

  it("with json on, a gzip JSON body is ours (inflated), not Fastify's", async () => {
    const { json } = await postOnce(withPlugin({}), {
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: GZIPPED_JSON,
    });
    assert.deepEqual(json, { body: { a: 1 } });
  });
});
