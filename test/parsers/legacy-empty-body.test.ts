import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import express4 from 'express4';
import { z } from 'zod';
import { parsers } from '../../src/index.js';
import {
  type Framework,
  type Handler,
  type Middleware,
  rawHead,
  send,
  sendRaw,
} from '../helpers/index.js';
import { type AnyParser, assertBody, exchange, withServer } from '../helpers/parsers.js';

// body-parser 1.x (Express 4's express.json() and the others) set `req.body = req.body || {}`
// in each parser before it looked at the request, so Express 4 applications read `req.body.x`
// without a check. `legacyEmptyBody: true` gives them that `{}`; the default is body-parser 2's
// `undefined`.

const all: ReadonlyArray<[string, AnyParser]> = [
  ['json', parsers.json],
  ['raw', parsers.raw],
  ['text', parsers.text],
  ['urlencoded', parsers.urlencoded],
];

/** A handler written for body-parser 1.x: reads a property of `req.body` unguarded. */
const unguarded: Handler = (req, res) => {
  const body = (req as { body?: { name?: unknown } }).body as { name?: unknown };
  res.end(`name=${String(body.name)}`);
};

/** A GET with no body, as a browser sends it. */
const get = { headers: {} };

describe('the legacyEmptyBody option', () => {
  for (const framework of ['express4', 'http'] as const satisfies readonly Framework[]) {
    it(`gives an unguarded req.body.x handler a {} for a GET in ${framework}`, async () => {
      await withServer(
        parsers.json({ legacyEmptyBody: true }),
        async (server) => {
          const reply = await send(server, get);
          const outcome = await server.nextOutcome();
          assert.equal(reply.text, 'name=undefined');
          assert.deepEqual(outcome.body, {});
        },
        { framework, handler: unguarded },
      );
    });
  }

  it('without it, the same handler fails on the undefined req.body in Express 4', async () => {
    await withServer(
      parsers.json(),
      async (server) => {
        const reply = await send(server, get);
        await server.nextOutcome();
        assert.equal(reply.status, 500);
        assert.match(reply.text, /^\[undefined\] Cannot read properties of undefined/);
      },
      // Express catches what the handler throws; the test server's error handler answers it.
      { framework: 'express4', handler: unguarded },
    );
  });

  for (const [name, parser] of all) {
    it(`${name}: a request without a body gets a {}`, async () => {
      await withServer(parser({ legacyEmptyBody: true }), async (server) => {
        // Neither Content-Length nor Transfer-Encoding: no body (RFC 9112 sec 6.3).
        const head = rawHead('POST', '/', { 'Content-Type': 'application/json' });
        const reply = await sendRaw(server, [head], { timeoutMs: 300 });
        assert.match(reply.raw, /\r\n\r\n\{\}$/);
        assert.deepEqual((await server.nextOutcome()).body, {});
      });
    });

    it(`${name}: a body of another type gets a {}, left unread`, async () => {
      const result = await exchange(
        parser({ legacyEmptyBody: true, type: 'application/x-other' }),
        'application/json',
        '{"a":1}',
        {},
        'express4',
      );
      assertBody(result, {});
    });

    it(`${name}: a body it parses is the parsed body, not {}`, async () => {
      const result = await exchange(
        parser({ legacyEmptyBody: true, type: 'text/plain' }),
        'text/plain',
        '{"a":1}',
        {},
        'express4',
      );
      assert.notDeepEqual(result.outcome.body, {});
      assert.equal(result.reply.status, 200);
    });
  }

  it('a request already read, whose body nothing set, gets a {}', async () => {
    const json = parsers.json({ legacyEmptyBody: true });
    const drained: Middleware = (req, res, next) => {
      req.on('end', () => json(req, res, next));
      req.resume();
    };
    assertBody(await exchange(drained, 'application/json', '{"a":1}'), {});
  });

  it('a body an earlier parser set is left alone, when the request is already read', async () => {
    const result = await exchange(
      [parsers.text(), parsers.json({ legacyEmptyBody: true, type: '*/*' })],
      'text/plain',
      '',
    );
    assertBody(result, '');
  });

  it('a parser before it that left req.body undefined does not stop it', async () => {
    const result = await exchange(
      [parsers.json(), parsers.urlencoded({ legacyEmptyBody: true })],
      'text/plain',
      'x',
    );
    assertBody(result, {});
  });

  it('each request gets its own {}', async () => {
    const json = parsers.json({ legacyEmptyBody: true });
    const bodies: unknown[] = [];
    const keep: Middleware = (req, res, next) =>
      json(req, res, (err) => {
        const body = (req as { body?: Record<string, unknown> }).body;
        bodies.push(body);
        if (body) body.seen = true;
        next(err);
      });
    await withServer(keep, async (server) => {
      for (let i = 0; i < 2; i++) {
        await send(server, get);
        await server.nextOutcome();
      }
    });
    assert.equal(bodies.length, 2);
    assert.notEqual(bodies[0], bodies[1]);
    assert.deepEqual(bodies[1], { seen: true });
  });

  it('an error leaves the {} in req.body, as body-parser 1.x did', async () => {
    let body: unknown;
    const json = parsers.json({ legacyEmptyBody: true });
    const probe: Middleware = (req, res, next) =>
      json(req, res, (err) => {
        body = (req as { body?: unknown }).body;
        next(err);
      });
    const result = await exchange(probe, 'application/json', '{');
    assert.equal(result.reply.status, 400);
    assert.deepEqual(body, {});
  });

  it("gives req.body what Express 4's own parsers (body-parser 1.x) give, in Express 4", async () => {
    const cases: ReadonlyArray<[string, string | undefined, string | undefined]> = [
      ['GET', undefined, undefined],
      ['POST', 'text/plain', 'x'],
      ['POST', 'application/json', '{"a":[1]}'],
      ['POST', 'application/x-www-form-urlencoded', 'a=1'],
    ];
    const stacks: Record<string, Middleware[]> = {
      httpware: [
        parsers.json({ legacyEmptyBody: true }),
        parsers.urlencoded({ legacyEmptyBody: true, extended: true }),
      ],
      express4: [express4.json(), express4.urlencoded({ extended: true })],
    };
    const seen: Record<string, unknown[]> = { httpware: [], express4: [] };
    for (const [name, stack] of Object.entries(stacks)) {
      await withServer(
        stack,
        async (server) => {
          for (const [method, type, body] of cases) {
            await send(server, {
              method,
              headers: type === undefined ? {} : { 'content-type': type },
              ...(body === undefined ? {} : { body }),
            });
            seen[name]?.push((await server.nextOutcome()).body);
          }
        },
        { framework: 'express4' },
      );
    }
    assert.deepEqual(seen.httpware, [{}, {}, { a: [1] }, { a: '1' }]);
    assert.deepEqual(seen.httpware, seen.express4);
  });

  it('is off by default: req.body stays undefined, as with body-parser 2', async () => {
    for (const [, parser] of all) {
      for (const options of [undefined, {}, { legacyEmptyBody: false }]) {
        const result = await exchange(parser(options), 'application/x-other', 'x', {}, 'express4');
        assert.equal(result.outcome.body, undefined);
        assert.equal(result.reply.text, 'undefined');
      }
    }
  });

  it('must be a boolean: anything else is a TypeError at creation', () => {
    for (const [, parser] of all) {
      for (const value of ['true', 'false', 1, 0, null, {}]) {
        assert.throws(() => parser({ legacyEmptyBody: value as never }), {
          name: 'TypeError',
          message: 'option legacyEmptyBody must be a boolean',
        });
      }
    }
  });

  it('cannot be given with a schema: its {} would not be the schema output the types promise', () => {
    const schema = z.object({ role: z.string().default('member') });
    for (const [, parser] of all) {
      assert.throws(() => parser({ legacyEmptyBody: true, schema } as never), {
        name: 'TypeError',
        message: 'option legacyEmptyBody cannot be used with option schema',
      });
      assert.doesNotThrow(() => parser({ legacyEmptyBody: false, schema } as never));
    }
  });

  it('is not an option of read: read leaves req.body alone', async () => {
    let body: unknown = 'unset';
    let had = true;
    const reader: Middleware = (req, _res, next) => {
      // What a JavaScript caller can still pass; the types refuse it (test/types/parsers.ts).
      parsers.text.read(req, { legacyEmptyBody: true } as never).then((value) => {
        had = 'body' in req;
        body = value;
        next();
      }, next);
    };
    await withServer(
      reader,
      async (server) => {
        await send(server, get);
        await server.nextOutcome();
      },
      { handler: (_req, res) => res.end() },
    );
    assert.equal(had, false);
    assert.equal(body, '');
  });

  it('given to read anyway, a value that is not a boolean rejects with the TypeError', async () => {
    await withServer(
      (req, _res, next) => {
        parsers.json.read(req, { legacyEmptyBody: 'yes' } as never).then(() => next(), next);
      },
      async (server) => {
        const reply = await send(server, get);
        await server.nextOutcome();
        assert.equal(reply.text, '[undefined] option legacyEmptyBody must be a boolean');
      },
    );
  });
});
