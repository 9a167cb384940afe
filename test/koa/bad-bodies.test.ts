import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import type { KoaParser } from '../../src/koa/types.js';
import {
  badBodies,
  bodyOf,
  type ParserName,
  recorded,
  routeOf,
  sendBadBody,
} from '../helpers/bad-bodies.js';
import type { TestServer } from '../helpers/index.js';
import { type KoaMiddleware, koaVersions, serveKoa } from '../helpers/koa.js';

// The shared corpus of bad bodies (test/helpers/bad-bodies.ts) through the Koa parsers: each
// route's parser as Koa middleware, its error answered with the status and httpware's type.
// One difference, the middleware's: a body of another media type (or of none) is not the
// parser's, so the chain goes on without a body (as on Express), where `read`, asked for this
// body, refuses it with a 415.

const PASSED_OVER = 'media.type.unsupported';

/** The corpus routes as Koa middleware: the route's parser, then the body as JSON. */
function corpusApp(): KoaMiddleware[] {
  const made = new Map<string, KoaMiddleware>();
  const answerErrors: KoaMiddleware = async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, type } = err as { status: number; type: string };
      recorded.push({ status, type });
      ctx.status = status;
      ctx.body = { code: type };
    }
  };
  const route: KoaMiddleware = async (ctx, next) => {
    if (ctx.path === '/outcomes') {
      ctx.body = recorded.splice(0);
      return;
    }
    const found = routeOf(ctx.path);
    if (found === null) return;
    let parser = made.get(ctx.path);
    if (parser === undefined) {
      const factory = koa[found.parser as ParserName] as KoaParser<object>;
      parser = factory(found.options) as KoaMiddleware;
      made.set(ctx.path, parser);
    }
    await parser(ctx, next);
  };
  const answer: KoaMiddleware = async (ctx) => {
    recorded.push({ status: 200, type: 'ok' });
    ctx.body = { body: bodyOf((ctx.request as { body?: unknown }).body) ?? null };
  };
  return [answerErrors, route, answer];
}

for (const version of koaVersions) {
  describe(`${version}: bad bodies through the Koa parsers`, () => {
    let server: TestServer;
    before(async () => {
      server = await serveKoa(version, corpusApp());
    });
    after(() => server.close());

    for (const bad of badBodies) {
      const passedOver = bad.types.includes(PASSED_OVER);
      const expected = passedOver ? '200 ok (not the parser’s)' : `${bad.status} ${bad.types}`;
      test(`${bad.name}: ${expected}`, async () => {
        const answer = await sendBadBody(server, bad);
        if (passedOver) {
          assert.deepEqual(answer, { status: 200, type: 'ok' });
          return;
        }
        assert.equal(answer.status, bad.status);
        assert.ok(bad.types.includes(answer.type), `got ${answer.type}`);
      });
    }
  });
}
