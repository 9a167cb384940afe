// The bad-body corpus through httpwareParsers on Fastify 5: each case gets the answer it gets
// through every other door, by Fastify's own default error handler, whose `code` is Fastify's
// own (`FST_ERR_CTP_*`) where Fastify answers the same refusal, else httpware's type.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpwareParsers } from '../../src/fastify/index.js';
import { badBodies, routeOf, sendBadBody } from '../helpers/bad-bodies.js';
import { corpusRoutes, type FastifyTestServer, startFastify } from '../helpers/fastify.js';

const FASTIFY_CODES: Readonly<Record<string, string>> = {
  'entity.too.large': 'FST_ERR_CTP_BODY_TOO_LARGE',
  'media.type.unsupported': 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'request.size.invalid': 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
};
const FASTIFY_JSON_CODES: Readonly<Record<string, string>> = {
  ...FASTIFY_CODES,
  'entity.parse.failed': 'FST_ERR_CTP_INVALID_JSON_BODY',
  'entity.prototype.forbidden': 'FST_ERR_CTP_INVALID_JSON_BODY',
};

/** The code Fastify's error handler answers an error of `type` with, on a route of `path`. */
function codeOf(type: string, path: string): string {
  const codes = routeOf(path)?.parser === 'json' ? FASTIFY_JSON_CODES : FASTIFY_CODES;
  return codes[type] ?? type;
}

describe('the bad-body corpus on Fastify', () => {
  let server: FastifyTestServer;
  before(async () => {
    server = await startFastify(
      corpusRoutes((app, parser, options) => {
        const only = { json: false, urlencoded: false, text: false, raw: false, [parser]: options };
        app.register(httpwareParsers, only);
      }),
    );
  });
  after(() => server.close());

  for (const bad of badBodies) {
    it(`${bad.name}: ${bad.status} ${bad.types.join(' or ')}`, async () => {
      const answer = await sendBadBody(server, bad);
      assert.equal(answer.status, bad.status);
      // A client that left is told by the type the onError hook recorded, not by an answer.
      const codes =
        bad.send.by === 'socket' ? bad.types : bad.types.map((t) => codeOf(t, bad.path));
      assert.ok(codes.includes(answer.type), `got ${answer.type}`);
    });
  }
});
