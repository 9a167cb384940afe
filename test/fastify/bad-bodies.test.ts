// The bad-body corpus through httpwareParsers on Fastify 5: each case gets the answer it gets
// through every other door, by Fastify's own default error handler.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpwareParsers } from '../../src/fastify/index.js';
import { badBodies, sendBadBody } from '../helpers/bad-bodies.js';
import { corpusRoutes, type FastifyTestServer, startFastify } from '../helpers/fastify.js';

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
      assert.ok(bad.types.includes(answer.type), `got ${answer.type}`);
    });
  }
});
