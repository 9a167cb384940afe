import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSafeNumber, parse as losslessParse } from 'lossless-json';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';

/** JSON with 64-bit integers kept exact: unsafe integers become BigInts. */
const exactIntegers = (text: string): unknown =>
  losslessParse(text, null, (digits) => (isSafeNumber(digits) ? Number(digits) : BigInt(digits)));

/** A parser that builds objects with plain assignment: `__proto__` then sets the prototype. */
function assigningParse(text: string): unknown {
  const source = JSON.parse(text) as Record<string, unknown>;
  const built: Record<string, unknown> = {};
  for (const key of Object.keys(source)) built[key] = source[key];
  return built;
}

describe('the parse option of json', () => {
  it('parses with the given function instead of JSON.parse: 64-bit ids stay exact', async () => {
    let seen: unknown;
    const parser = parsers.json({ parse: exactIntegers });
    const probe = (
      req: Parameters<typeof parser>[0],
      res: Parameters<typeof parser>[1],
      next: (err?: unknown) => void,
    ) =>
      parser(req, res, (err) => {
        seen = (req as { body?: unknown }).body;
        // The test server answers with req.body as JSON, which has no BigInt.
        (req as { body?: unknown }).body = 'seen';
        next(err);
      });
    await exchange(probe, JSON_TYPE, '{"id":9007199254740993,"n":1}');
    assert.deepEqual(seen, { id: 9007199254740993n, n: 1 });
  });

  it('refuses parse together with a reviver, and a parse that is not a function, at creation', () => {
    assert.throws(() => parsers.json({ parse: JSON.parse, reviver: (_k, v) => v }), {
      name: 'TypeError',
      message: 'option parse cannot be used with option reviver',
    });
    assert.throws(() => parsers.json({ parse: 'bigint' as never }), {
      name: 'TypeError',
      message: 'option parse must be function',
    });
  });

  it('answers what it throws with 400 entity.parse.failed, a SyntaxError staying one', async () => {
    const thrown = Object.assign(new Error('no tabs here'), { status: 503, type: 'mine' });
    const refusing = parsers.json({
      parse: () => {
        throw thrown;
      },
    });
    const err = assertError(
      await exchange(refusing, JSON_TYPE, '{}'),
      400,
      'entity.parse.failed',
      'no tabs here',
      {
        body: '{}',
      },
    );
    assert.equal((err as { cause?: unknown }).cause, thrown);
    const syntax = await exchange(parsers.json({ parse: exactIntegers }), JSON_TYPE, '{"a":}');
    const failed = assertError(syntax, 400, 'entity.parse.failed', /./);
    assert.ok(failed instanceof SyntaxError);
  });

  it('keeps strict mode: a top-level primitive is refused before parse is called', async () => {
    let called = false;
    const parser = parsers.json({
      parse: (text) => {
        called = true;
        return JSON.parse(text);
      },
    });
    const result = await exchange(parser, JSON_TYPE, '"just a string"');
    assertError(result, 400, 'entity.parse.failed', /is not valid JSON/);
    assert.equal(called, false);
  });

  it('keeps the charset refusal: utf-7 is a 415', async () => {
    const result = await exchange(
      parsers.json({ parse: JSON.parse }),
      `${JSON_TYPE}; charset=utf-7`,
      '{}',
    );
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "UTF-7"');
  });

  describe('keeps the prototype-key protection', () => {
    it('refuses an own __proto__ key in what it returns', async () => {
      const result = await exchange(
        parsers.json({ parse: JSON.parse }),
        JSON_TYPE,
        '{"a":{"__proto__":{"x":1}}}',
      );
      assertError(
        result,
        400,
        'entity.prototype.forbidden',
        'forbidden prototype property "__proto__" in JSON body',
      );
    });

    it('refuses a prototype that a __proto__ key set by assignment', async () => {
      const result = await exchange(
        parsers.json({ parse: assigningParse }),
        JSON_TYPE,
        '{"__proto__":{"admin":true}}',
      );
      assertError(result, 400, 'entity.prototype.forbidden', /__proto__/, { key: '__proto__' });
    });

    it('refuses a poisoned object whatever the text looked like', async () => {
      const poisoned = () => JSON.parse('{"user":{"constructor":{"prototype":{"admin":true}}}}');
      const result = await exchange(parsers.json({ parse: poisoned }), JSON_TYPE, '{"user":{}}');
      assertError(result, 400, 'entity.prototype.forbidden', /constructor\.prototype/, {
        key: 'constructor.prototype',
      });
    });

    it("removes such keys with 'remove', and gives the object back its plain prototype", async () => {
      const removed = await exchange(
        parsers.json({ parse: JSON.parse, onProtoPoisoning: 'remove' }),
        JSON_TYPE,
        '{"a":1,"__proto__":{"x":1}}',
      );
      assertBody(removed, { a: 1 });
      let proto: unknown;
      const parser = parsers.json({ parse: assigningParse, onProtoPoisoning: 'remove' });
      await exchange(
        (req, res, next) =>
          parser(req, res, (err) => {
            proto = Object.getPrototypeOf((req as { body?: object }).body);
            next(err);
          }),
        JSON_TYPE,
        '{"__proto__":{"admin":true}}',
      );
      assert.equal(proto, Object.prototype);
    });

    it("leaves them with 'ignore'", async () => {
      const result = await exchange(
        parsers.json({ parse: JSON.parse, onProtoPoisoning: 'ignore' }),
        JSON_TYPE,
        '{"__proto__":{"x":1}}',
      );
      assert.equal(result.outcome.error, undefined);
    });

    it("walks shared and cyclic results once, and leaves the parser's own class instances alone", async () => {
      class Money {
        constructor(readonly cents: bigint) {}
      }
      const parse = () => {
        const shared = { price: new Money(100n) };
        const root: Record<string, unknown> = { a: shared, b: shared };
        root.self = root;
        return root;
      };
      let body: Record<string, unknown> | undefined;
      const parser = parsers.json({ parse });
      const result = await exchange(
        (req, res, next) =>
          parser(req, res, (err) => {
            body = (req as { body?: Record<string, unknown> }).body;
            // The test server answers with req.body as JSON, which has no cycles.
            (req as { body?: unknown }).body = 'seen';
            next(err);
          }),
        JSON_TYPE,
        '{}',
      );
      assert.equal(result.outcome.nextCalls, 1);
      assert.equal(body?.self, body);
      assert.ok((body?.a as { price?: unknown } | undefined)?.price instanceof Money);
    });
  });
});
