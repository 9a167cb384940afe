import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { parsers, type StandardSchemaV1 } from '../../src/index.js';
import { frameworks } from '../helpers/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const User = z.object({
  name: z.string().transform((name) => name.trim()),
  role: z.enum(['admin', 'user']).default('user'),
});

/** A schema of our own, in the shape of the specification, for what no library does. */
function schemaOf(validate: (value: unknown) => unknown): StandardSchemaV1 {
  return { '~standard': { version: 1, vendor: 'test', validate } } as StandardSchemaV1;
}

describe('the schema option', () => {
  for (const framework of frameworks) {
    it(`puts the schema's output, defaults and transforms applied, in req.body (${framework})`, async () => {
      const result = await exchange(
        parsers.json({ schema: User }),
        JSON_TYPE,
        '{"name":"  ada "}',
        {},
        framework,
      );
      assertBody(result, { name: 'ada', role: 'user' });
    });
  }

  it('validates with valibot', async () => {
    const schema = v.object({ n: v.pipe(v.string(), v.transform(Number)) });
    assertBody(await exchange(parsers.json({ schema }), JSON_TYPE, '{"n":"42"}'), { n: 42 });
  });

  it('validates with arktype, whose schemas are functions', async () => {
    const schema = type({ n: 'number', 'tags?': 'string[]' });
    assertBody(await exchange(parsers.json({ schema }), JSON_TYPE, '{"n":1}'), { n: 1 });
  });

  it('validates with zod 3', async () => {
    const schema = z3.object({ n: z3.number().default(7) });
    assertBody(await exchange(parsers.json({ schema }), JSON_TYPE, '{}'), { n: 7 });
  });

  it('validates a form, whose values are strings, with coercion', async () => {
    const schema = z.object({ age: z.coerce.number().int(), ok: z.literal('on').optional() });
    const result = await exchange(parsers.urlencoded({ schema }), FORM_TYPE, 'age=41&ok=on');
    assertBody(result, { age: 41, ok: 'on' });
  });

  it('validates a text body', async () => {
    const schema = z.string().regex(/^[a-z]+$/);
    assertBody(await exchange(parsers.text({ schema }), 'text/plain', 'hello'), 'hello');
    const result = await exchange(parsers.text({ schema }), 'text/plain', 'Hello!');
    assertError(
      result,
      422,
      'entity.validation.failed',
      'invalid request body: 1 issue, at the body',
    );
  });

  it('waits for an asynchronous schema', async () => {
    const schema = z.object({ id: z.number() }).refine(async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return id > 0;
    }, 'unknown id');
    assertBody(await exchange(parsers.json({ schema }), JSON_TYPE, '{"id":3}'), { id: 3 });
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, '{"id":-1}');
    assertError(
      result,
      422,
      'entity.validation.failed',
      'invalid request body: 1 issue, at the body',
      {
        issues: [{ path: [], message: 'invalid value' }],
      },
    );
  });

  it('refuses a body that fails with 422 entity.validation.failed, its issues as paths of keys with a fixed message, req.body left unset', async () => {
    const schema = z.object({ user: z.object({ name: z.string(), age: z.number() }) });
    const result = await exchange(
      parsers.json({ schema }),
      JSON_TYPE,
      '{"user":{"name":1,"age":2}}',
    );
    assertError(
      result,
      422,
      'entity.validation.failed',
      'invalid request body: 1 issue, at user.name',
      { issues: [{ path: ['user', 'name'], message: 'invalid value' }] },
    );
    assert.equal(result.outcome.body, undefined);
  });

  it("gives the validator's messages with issueMessages: 'validator', the message still httpware's", async () => {
    const schema = z.object({ user: z.object({ name: z.string(), age: z.number() }) });
    const parser = parsers.json({ schema, issueMessages: 'validator' });
    const result = await exchange(parser, JSON_TYPE, '{"user":{"name":1,"age":"2"}}');
    assertError(
      result,
      422,
      'entity.validation.failed',
      'invalid request body: 2 issues, first at user.name',
      {
        issues: [
          { path: ['user', 'name'], message: 'Invalid input: expected string, received number' },
          { path: ['user', 'age'], message: 'Invalid input: expected number, received string' },
        ],
      },
    );
  });

  it('keeps only the key of a path segment given as an object (valibot: its input and value stay out)', async () => {
    const schema = v.object({ list: v.array(v.number()) });
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, '{"list":[1,"secret"]}');
    const err = assertError(result, 422, 'entity.validation.failed', /^invalid request body: /);
    assert.deepEqual(
      (err.issues as { path: unknown[] }[]).map((issue) => issue.path),
      [['list', 1]],
    );
  });

  describe("with issueMessages: 'validator', cuts a rejected string, number or null out of the validator's messages", () => {
    const secret = 'hunter2-swordfish';
    const cases: Record<string, StandardSchemaV1> = {
      'zod 3, whose enum messages quote it': z3.object({ role: z3.enum(['admin', 'user']) }),
      'valibot, which prints it': v.object({ role: v.picklist(['admin', 'user']) }),
      'arktype, which prints it': type({ role: "'admin' | 'user'" }),
    };
    for (const [name, schema] of Object.entries(cases)) {
      it(name, async () => {
        const body = JSON.stringify({ role: secret });
        const parser = parsers.json({ schema, issueMessages: 'validator' });
        const result = await exchange(parser, JSON_TYPE, body);
        const err = assertError(
          result,
          422,
          'entity.validation.failed',
          'invalid request body: 1 issue, at role',
        );
        const issues = err.issues as { path: unknown[]; message: string }[];
        assert.deepEqual(
          issues.map((issue) => issue.path),
          [['role']],
        );
        assert.doesNotMatch(JSON.stringify(issues), /hunter2/);
        assert.doesNotMatch(err.message as string, /hunter2/);
        assert.doesNotMatch(result.reply.text, /hunter2/);
        assert.match(issues[0]?.message ?? '', /…/);
      });
    }

    it('a number, and leaves the words of the message alone', async () => {
      const schema = type({ n: '1 | 2', s: "'x' | 'y'" });
      const body = JSON.stringify({ n: 31337, s: 'a' });
      const parser = parsers.json({ schema, issueMessages: 'validator' });
      const result = await exchange(parser, JSON_TYPE, body);
      const err = assertError(result, 422, 'entity.validation.failed', /^invalid request body: /);
      const messages = (err.issues as { message: string }[]).map((issue) => issue.message);
      assert.equal(messages.length, 2);
      assert.doesNotMatch(messages.join('\n'), /31337|"a"/);
      // The value "a" is cut where quoted only: the words around it stay.
      assert.match(
        messages.find((m) => m.startsWith('s ')) ?? '',
        /^s must be "x" or "y" \(was …\)$/,
      );
    });
  });

  it('keeps at most 100 issues of a huge list, and counts them all in the message', async () => {
    const schema = z.array(z.number());
    const body = JSON.stringify(Array.from({ length: 5000 }, (_, i) => `item ${i}`));
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, body);
    const err = assertError(
      result,
      422,
      'entity.validation.failed',
      'invalid request body: 5000 issues, first at 0',
    );
    const issues = err.issues as { path: unknown[] }[];
    assert.equal(issues.length, 100);
    assert.deepEqual(issues[99]?.path, [99]);
  });

  it("cuts a validator's long message, and the keys of a long path", async () => {
    const long = 'x'.repeat(1000);
    const key = 'k'.repeat(500);
    const schema = schemaOf(() => ({
      issues: [{ message: long, path: [...Array.from({ length: 32 }, () => key)] }],
    }));
    const parser = parsers.json({ schema, issueMessages: 'validator' });
    const result = await exchange(parser, JSON_TYPE, '{}');
    const err = assertError(result, 422, 'entity.validation.failed', /^invalid request body: /);
    const [issue] = err.issues as { path: string[]; message: string }[];
    assert.equal(issue?.message, `${'x'.repeat(199)}…`);
    assert.equal(issue?.path.length, 32);
    assert.equal(issue?.path[0], `${'k'.repeat(63)}…`);
  });

  it("cuts a path at 32 keys, and gives no validator's message for it (its value is not looked for)", async () => {
    const schema = schemaOf(() => ({
      issues: [{ message: 'too deep', path: Array.from({ length: 100 }, (_, i) => i) }],
    }));
    const parser = parsers.json({ schema, issueMessages: 'validator' });
    const result = await exchange(parser, JSON_TYPE, '{}');
    const err = assertError(result, 422, 'entity.validation.failed', /^invalid request body: /);
    assert.deepEqual(err.issues, [
      { path: Array.from({ length: 32 }, (_, i) => i), message: 'invalid value' },
    ]);
  });

  it('answers a schema that throws with 500 entity.validation.threw, hidden from the client, the thrown error only as its cause', async () => {
    const boom = new Error('database down');
    const schema = schemaOf(() => {
      throw boom;
    });
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, '{}');
    const err = assertError(result, 500, 'entity.validation.threw', 'the schema threw');
    assert.equal(err.cause, boom);
    assert.equal(err.expose, false);
  });

  it('answers a transform that throws (zod lets it through) as a schema that throws', async () => {
    const schema = z.object({ a: z.string() }).transform(() => {
      throw new Error('bug in transform');
    });
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, '{"a":"x"}');
    assertError(result, 500, 'entity.validation.threw', 'the schema threw');
  });

  it('answers a schema whose promise rejects as a schema that throws', async () => {
    const schema = schemaOf(() => Promise.reject(new Error('lookup failed')));
    const result = await exchange(parsers.json({ schema }), JSON_TYPE, '{}');
    assertError(result, 500, 'entity.validation.threw', 'the schema threw');
  });

  it('answers a schema that returns no result as a broken schema', async () => {
    const result = await exchange(parsers.json({ schema: schemaOf(() => 42) }), JSON_TYPE, '{}');
    const err = assertError(result, 500, 'entity.validation.threw', 'the schema threw');
    assert.equal((err.cause as Error).message, 'the schema returned no result');
  });

  it('gives up on a schema that never settles after schemaTimeout: 500 entity.validation.timeout, next once', async () => {
    const schema = schemaOf(() => new Promise(() => {}));
    const started = Date.now();
    const result = await exchange(parsers.json({ schema, schemaTimeout: 100 }), JSON_TYPE, '{}');
    const elapsed = Date.now() - started;
    assertError(
      result,
      500,
      'entity.validation.timeout',
      'the schema did not settle within 100 ms',
      {
        timeout: 100,
      },
    );
    assert.ok(elapsed >= 100 && elapsed < 3000, `answered after ${elapsed} ms`);
  });

  it('ignores a schema that settles after its timeout', async () => {
    let settle: (value: unknown) => void = () => {};
    const schema = schemaOf(() => new Promise((resolve) => (settle = resolve)));
    const result = await exchange(parsers.json({ schema, schemaTimeout: 50 }), JSON_TYPE, '{}');
    assertError(result, 500, 'entity.validation.timeout', /did not settle/);
    settle({ value: { late: true } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(result.outcome.nextCalls, 1);
  });

  it('refuses a schema without ~standard.validate, a bad issueMessages and a bad schemaTimeout, at creation', () => {
    for (const schema of [{}, { '~standard': {} }, 'zod', () => true]) {
      assert.throws(() => parsers.json({ schema: schema as never }), {
        name: 'TypeError',
        message: 'option schema must be a Standard Schema (with ~standard.validate)',
      });
    }
    for (const issueMessages of ['', 'Validator', true]) {
      assert.throws(() => parsers.json({ schema: User, issueMessages: issueMessages as never }), {
        name: 'TypeError',
        message: 'option issueMessages must be "generic" or "validator"',
      });
    }
    for (const schemaTimeout of [0, -1, Number.NaN, Infinity, 2 ** 31, '100']) {
      assert.throws(() => parsers.text({ schema: User, schemaTimeout: schemaTimeout as never }), {
        name: 'TypeError',
        message: 'option schemaTimeout must be a number of milliseconds from 1 to 2147483647',
      });
    }
  });
});
