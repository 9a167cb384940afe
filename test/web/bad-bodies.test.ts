import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { parsers } from '../../src/index.js';
import {
  type Answer,
  badBodies,
  bodyOf,
  handleBadBody,
  recorded,
  routeOf,
  sendBadBody,
} from '../helpers/bad-bodies.js';
import { fetchAdapters, serveFetch } from '../helpers/fetch.js';
import { serve, type TestServer } from '../helpers/index.js';

// The shared corpus of bad bodies (test/helpers/bad-bodies.ts) through both doors: `read(req)`
// on node:http's IncomingMessage, answered by problemHandler(), and `read(request)` on a Web
// Request behind each Node adapter, answered by toResponse(). Every case gets its expected
// status and type, and the same on both doors.

const problems = parsers.problemHandler();

/** The corpus server for an IncomingMessage: the same routes, `read` and problemHandler. */
const nodeListener: http.RequestListener = (req, res) => {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path === '/outcomes') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(recorded.splice(0)));
    return;
  }
  const route = routeOf(path);
  if (route === null) {
    res.statusCode = 404;
    res.end();
    return;
  }
  const read = parsers[route.parser].read as (req: unknown, options: unknown) => Promise<unknown>;
  read(req, route.options).then(
    (body) => {
      recorded.push({ status: 200, type: 'ok' });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ body: bodyOf(body) }));
    },
    (err: { status: number; type: string }) => {
      recorded.push({ status: err.status, type: err.type });
      problems(err, req, res, () => {});
    },
  );
};

const answers = new Map<string, Answer>();

describe('bad bodies on an IncomingMessage (node:http, read + problemHandler)', () => {
  let server: TestServer;
  before(async () => {
    server = await serve(nodeListener);
  });
  after(() => server.close());

  for (const bad of badBodies) {
    test(`${bad.name}: ${bad.status} ${bad.types.join(' or ')}`, async () => {
      const answer = await sendBadBody(server, bad);
      answers.set(bad.name, answer);
      assert.equal(answer.status, bad.status);
      assert.ok(bad.types.includes(answer.type), `got ${answer.type}`);
    });
  }
});

for (const adapter of fetchAdapters) {
  describe(`bad bodies on a Web Request behind ${adapter} (read + toResponse)`, () => {
    let server: TestServer;
    before(async () => {
      server = await serveFetch((request) => handleBadBody(request, parsers), adapter);
    });
    after(() => server.close());

    for (const bad of badBodies) {
      test(`${bad.name}: the answer the IncomingMessage got`, async () => {
        const answer = await sendBadBody(server, bad);
        assert.equal(answer.status, bad.status);
        assert.ok(bad.types.includes(answer.type), `got ${answer.type}`);
        const onNode = answers.get(bad.name);
        if (onNode !== undefined) assert.deepEqual(answer, onNode);
      });
    }
  });
}
