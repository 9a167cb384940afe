// httpwareParsers answers as Fastify's own parsers do where a Fastify user relies on it: errors
// carry Fastify's code (`FST_ERR_CTP_*`) beside httpware's `type`, an empty JSON body is a 400,
// and any JSON value is a body; each with the option that gives httpware's own behaviour back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type FastifyParsersOptions, httpwareParsers } from '../../src/fastify/index.js';
import { echoRoute, errorsSeen, postOnce, startFastify } from '../helpers/fastify.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** An app with the plugin and POST /, and the errors its onError hooks saw. */
function recording(options: FastifyParsersOptions = {}) {
  let seen: Record<string, unknown>[] = [];
  const build = (app: FastifyInstance) => {
    seen = errorsSeen(app);
    app.register(httpwareParsers, options);
    echoRoute(app);
  };
  return { build, errors: () => seen };
}

describe("httpwareParsers' errors carry Fastify's codes beside httpware's type", () => {
  const cases = [
    {
      name: 'a body over the limit',
      options: { json: { limit: 10 } },
      request: { headers: JSON_TYPE, body: '{"a":"0123456789"}' },
      status: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      type: 'entity.too.large',
    },
    {
      name: 'a media type no parser takes',
      options: {},
      request: { headers: { 'content-type': 'image/png' }, body: 'x' },
      status: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      type: 'media.type.unsupported',
    },
    {
      name: 'invalid JSON',
      options: {},
      request: { headers: JSON_TYPE, body: '{"a":' },
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      type: 'entity.parse.failed',
    },
    {
      name: 'a prototype key in JSON',
      options: {},
      request: { headers: JSON_TYPE, body: '{"__proto__":{"x":1}}' },
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      type: 'entity.prototype.forbidden',
    },
    {
      name: 'an empty JSON body',
      options: {},
      request: { headers: { ...JSON_TYPE, 'content-length': '0' }, body: '' },
      status: 400,
      code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
      type: 'entity.parse.failed',
    },
    {
      name: 'a charset JSON does not take (no Fastify code: the type)',
      options: {},
      request: { headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: '{}' },
      status: 415,
      code: 'charset.unsupported',
      type: 'charset.unsupported',
    },
  ] as const;
  for (const c of cases) {
    it(`${c.name}: ${c.status} ${c.code}, type ${c.type}`, async () => {
      const { build, errors } = recording(c.options);
      const { reply, json } = await postOnce(build, c.request);
      assert.equal(reply.status, c.status);
      assert.equal(json.code, c.code);
      const [err] = errors();
      assert.equal(err?.type, c.type);
      assert.equal(err?.code, c.code);
      assert.deepEqual([err?.status, err?.statusCode, err?.expose], [c.status, c.status, true]);
    });
  }

  it('a body shorter than its Content-Length: 400 FST_ERR_CTP_INVALID_CONTENT_LENGTH', async () => {
    const { build, errors } = recording();
    const server = await startFastify(build);
    try {
      // light-my-request ends the body where node:http would wait for the rest.
      const reply = await server.app.inject({
        method: 'POST',
        url: '/',
        headers: { ...JSON_TYPE, 'content-length': '20' },
        payload: '{"a":1}',
      });
      assert.equal(reply.statusCode, 400);
      assert.equal(reply.json().code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH');
      assert.equal(errors()[0]?.type, 'request.size.invalid');
    } finally {
      await server.close();
    }
  });
});

describe('a body that is not JSON, under Fastify', () => {
  const SECRET = 'hunter2-0f9e';

  it("is answered without the body's text", async () => {
    const { reply, json } = await postOnce(recording().build, {
      headers: JSON_TYPE,
      body: `{"password": ${SECRET}}`,
    });
    assert.equal(reply.status, 400);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
    assert.equal(reply.text.includes(SECRET), false, reply.text);
  });

  it("leaves none of the body's text in Fastify's request log", async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const { reply } = await postOnce(
      recording().build,
      { headers: JSON_TYPE, body: `{"password": ${SECRET}}` },
      { logger: { stream, level: 'info' } },
    );
    assert.equal(reply.status, 400);
    assert.ok(
      lines.some((line) => line.includes('FST_ERR_CTP_INVALID_JSON_BODY')),
      lines.join(''),
    );
    assert.equal(lines.join('').includes(SECRET), false, lines.join(''));
  });
});

describe("httpwareParsers' JSON defaults under Fastify", () => {
  it('a chunked empty JSON body is a 400 too', async () => {
    const { reply, json } = await postOnce(recording().build, { headers: JSON_TYPE, body: [] });
    assert.equal(reply.status, 400);
    assert.equal(json.code, 'FST_ERR_CTP_EMPTY_JSON_BODY');
  });

  it("emptyBody: 'object' reads an empty JSON body as {}", async () => {
    const { json } = await postOnce(recording({ json: { emptyBody: 'object' } }).build, {
      headers: { ...JSON_TYPE, 'content-length': '0' },
      body: '',
    });
    assert.deepEqual(json, { body: {} });
  });

  it('a bad emptyBody fails the registration with a TypeError', async () => {
    await assert.rejects(
      postOnce(recording({ json: { emptyBody: 'none' as 'object' } }).build, { body: '' }),
      TypeError,
    );
  });

  for (const [text, value] of [
    ['null', null],
    ['42', 42],
    ['"s"', 's'],
    ['true', true],
  ] as const) {
    it(`takes any JSON value as the body, as Fastify's parser does: ${text}`, async () => {
      const { reply, json } = await postOnce(recording().build, { headers: JSON_TYPE, body: text });
      assert.equal(reply.status, 200);
      assert.deepEqual(json, { body: value });
    });
  }

  it('strict: true refuses a body that is neither an object nor an array (400)', async () => {
    const { reply, json } = await postOnce(recording({ json: { strict: true } }).build, {
      headers: JSON_TYPE,
      body: 'null',
    });
    assert.equal(reply.status, 400);
    assert.equal(json.code, 'FST_ERR_CTP_INVALID_JSON_BODY');
  });
});

describe("httpwareParsers: differences from Fastify's parsers that docs/fastify.md names", () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  it("a parser's limit above the server's bodyLimit does not raise it (413)", async () => {
    const { reply } = await postOnce(
      recording({ text: { limit: 20_000 } }).build,
      { headers: { 'content-type': 'text/plain' }, body: 'y'.repeat(2000) },
      { bodyLimit: 1024 },
    );
    assert.equal(reply.status, 413);
  });

  it('inflate: false refuses a compressed body with a 415 encoding.unsupported', async () => {
    const { reply, json } = await postOnce(recording({ json: { inflate: false } }).build, {
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: '{}',
    });
    assert.deepEqual([reply.status, json.code], [415, 'encoding.unsupported']);
  });

  it("Fastify's onProtoPoisoning does not reach the json parser; its own option does", async () => {
    const body = '{"__proto__":{"x":1},"a":1}';
    const refused = await postOnce(
      recording().build,
      { headers: JSON_TYPE, body },
      { onProtoPoisoning: 'remove' },
    );
    assert.equal(refused.reply.status, 400);
    const removed = await postOnce(recording({ json: { onProtoPoisoning: 'remove' } }).build, {
      headers: JSON_TYPE,
      body,
    });
    assert.deepEqual(removed.json, { body: { a: 1 } });
  });

  it('hasContentTypeParser is false for application/json once the plugin took it', async () => {
    const server = await startFastify(async (app) => {
      await app.register(httpwareParsers);
    });
    try {
      assert.equal(server.app.hasContentTypeParser('application/json'), false);
    } finally {
      await server.close();
    }
  });

  it("removing Fastify's JSON parser before the plugin leaves JSON to ours", async () => {
    const { json } = await postOnce(
      (app) => {
        app.removeContentTypeParser('application/json');
        recording().build(app);
      },
      { headers: JSON_TYPE, body: '{"a":1}' },
    );
    assert.deepEqual(json, { body: { a: 1 } });
  });

  it('reads a form flat by default, as @fastify/formbody: a[b] a name, repeats an array, an empty name dropped', async () => {
    const { json } = await postOnce(recording().build, {
      headers: FORM,
      body: 'a[b]=1&c=2&c=3&=4',
    });
    assert.deepEqual(json, { body: { 'a[b]': '1', c: ['2', '3'] } });
  });

  it('refuses a form of more than 1000 fields (413); parameterLimit: Infinity takes it', async () => {
    const body = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const refused = await postOnce(recording().build, { headers: FORM, body });
    assert.deepEqual([refused.reply.status, refused.json.code], [413, 'parameters.too.many']);
    const taken = await postOnce(
      recording({ urlencoded: { parameterLimit: Number.POSITIVE_INFINITY } }).build,
      { headers: FORM, body },
    );
    assert.equal(Object.keys(taken.json.body as object).length, 1001);
  });
});
