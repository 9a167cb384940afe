import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import createHttpError from 'http-errors';
import { HttpwareError, isHttpwareError, parsers } from '../../src/index.js';
import { type Framework, send } from '../helpers/index.js';
import { exchange, withServer } from '../helpers/parsers.js';

describe('parser errors', () => {
  it("are recognised by http-errors' isHttpError", async () => {
    const results = [
      await exchange(parsers.json(), 'application/json', '{'),
      await exchange(parsers.json(), 'application/json; charset=koi8-r', '{}'),
      await exchange(parsers.text({ limit: 1 }), 'text/plain', 'xx'),
    ];
    for (const { outcome } of results) {
      assert.equal(createHttpError.isHttpError(outcome.error), true);
      assert.equal(isHttpwareError(outcome.error), true);
      assert.ok(outcome.error instanceof HttpwareError);
      assert.ok(outcome.error instanceof Error);
    }
  });

  it('narrow on type with their extra properties', async () => {
    const { outcome } = await exchange(parsers.text({ limit: 1 }), 'text/plain', 'xx');
    const err = outcome.error;
    assert.ok(isHttpwareError(err) && err.type === 'entity.too.large');
    assert.equal(err.limit, 1);
    assert.equal(err.length, 2);
  });

  it('are not recognised as httpware errors when they are not', () => {
    assert.equal(isHttpwareError(new Error('x')), false);
    assert.equal(isHttpwareError(createHttpError(400)), false);
    assert.equal(isHttpwareError(null), false);
    assert.equal(new Error('x') instanceof HttpwareError, false);
  });

  it("can be made directly, with the registry's status and message", () => {
    const err = new HttpwareError('charset.unsupported', { charset: 'koi8-r' });
    assert.equal(err.message, 'unsupported charset "KOI8-R"');
    assert.equal(err.status, 415);
    assert.equal(err.statusCode, 415);
    assert.equal(err.expose, true);
    assert.equal(err.name, 'HttpwareError');
    assert.equal(createHttpError.isHttpError(err), true);
  });

  for (const framework of ['express4', 'express5', 'connect'] as Framework[]) {
    it(`are rendered by ${framework}'s default handler with their status and exposed message`, async () => {
      await withServer(
        parsers.json(),
        async (server) => {
          const reply = await send(server, {
            headers: { 'content-type': 'application/json' },
            body: '{"a":',
          });
          await server.nextOutcome();
          assert.equal(reply.status, 400);
          assert.match(reply.text, /Unexpected end of JSON input/);
        },
        { framework, errors: 'framework' },
      );
    });

    it(`are rendered as a 500 by ${framework}'s default handler when they are server errors`, async () => {
      const json = parsers.json();
      const mw = (
        req: Parameters<typeof json>[0],
        res: Parameters<typeof json>[1],
        next: Parameters<typeof json>[2],
      ) => {
        req.setEncoding('utf8');
        json(req, res, next);
      };
      await withServer(
        mw,
        async (server) => {
          const reply = await send(server, {
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          await server.nextOutcome();
          assert.equal(reply.status, 500);
        },
        { framework, errors: 'framework' },
      );
    });
  }
});
