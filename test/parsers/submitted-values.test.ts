import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type } from 'arktype';
import bodyParser from 'body-parser';
import * as v from 'valibot';
import { z } from 'zod';
import type { StandardSchemaV1 } from '../../src/index.js';
import { hostileSetup } from '../helpers/hostile.js';
import type { Middleware } from '../helpers/index.js';
import { type Seen, type Witness, witnessServer } from '../helpers/witness.js';

const hostile = hostileSetup();

// A value the client sent must reach no log line, no OpenTelemetry record and no response by
// default, whatever the validator prints: these are the reproductions of issue 30, through
// Express 5 with a `json` logger (and its record) and a text logger with `:error-message`.
// A validator's message is not trusted to leave values out (a union prints every branch's, a
// transform prints what it made of the value, a custom message prints anything), nor is what
// a schema or a verify throws.

const MARKER = 'SeCrEt-Hunter2-9876';
/** The marker as any transform may have printed it: any case. */
const SEEN = /secret-hunter2-9876|other-value-1234/i;

let witness: Witness;
before(async () => {
  await hostile.ready;
  witness = await witnessServer(hostile.subject);
});
after(() => witness.close());

function json(schema: StandardSchemaV1): Middleware {
  return hostile.subject.parsers.json({ schema }) as Middleware;
}

interface Case {
  readonly name: string;
  readonly parser: () => Middleware;
  readonly body: unknown;
  readonly status: number;
  readonly type: string;
}

const cases: readonly Case[] = [
  {
    name: 'an arktype union of objects, which prints both branches',
    parser: () => json(type({ a: "'x'" }).or({ b: "'y'" })),
    body: { a: MARKER, b: 'other-value-1234' },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'valibot pipe(string(), trim(), email()), which prints the trimmed value',
    parser: () => json(v.object({ email: v.pipe(v.string(), v.trim(), v.email()) })),
    body: { email: `  ${MARKER}  ` },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'valibot toLowerCase(), which prints the lowercased value',
    parser: () => json(v.object({ email: v.pipe(v.string(), v.toLowerCase(), v.email()) })),
    body: { email: MARKER },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'arktype string.trim, which prints the trimmed value',
    parser: () => json(type({ email: type('string.trim').pipe(type('string.email')) })),
    body: { email: `  ${MARKER}  ` },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'arktype string.lower, which prints the lowercased value',
    parser: () => json(type({ email: type('string.lower').pipe(type('string.email')) })),
    body: { email: MARKER },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'zod 4 .trim() with a custom message that prints the input',
    parser: () =>
      json(
        z.object({
          code: z
            .string()
            .trim()
            .regex(/^\d+$/, { error: (issue) => `bad code ${String(issue.input)}` }),
        }),
      ),
    body: { code: `  ${MARKER}  ` },
    status: 422,
    type: 'entity.validation.failed',
  },
  {
    name: 'a zod transform that throws JSON.parse\'s "… is not valid JSON"',
    parser: () => json(z.object({ a: z.string().transform((s) => JSON.parse(s) as unknown) })),
    body: { a: MARKER },
    status: 500,
    type: 'entity.validation.threw',
  },
  {
    name: 'a zod transform that throws BigInt\'s "Cannot convert … to a BigInt"',
    parser: () => json(z.object({ a: z.string().transform((s) => BigInt(s)) })),
    body: { a: MARKER },
    status: 500,
    type: 'entity.validation.threw',
  },
];

function assertUnseen(seen: Seen, places: readonly (keyof Seen)[]): void {
  for (const place of places) assert.doesNotMatch(String(seen[place]), SEEN, place);
}

describe('no submitted value in a line, a record or the response', () => {
  for (const c of cases) {
    test(`${c.name}: ${c.status} ${c.type}, the value nowhere`, async () => {
      witness.use(c.parser());
      const seen = await witness.post(JSON.stringify(c.body));
      assert.equal(seen.status, c.status, seen.response);
      const err = seen.error as { type?: unknown; message?: unknown; issues?: unknown };
      assert.equal(err.type, c.type);
      assertUnseen(seen, ['json', 'text', 'record', 'response']);
      assert.doesNotMatch(String(err.message), SEEN, 'err.message');
      assert.doesNotMatch(JSON.stringify(err.issues ?? []), SEEN, 'issues');
      // Something was written where the message goes, and it is httpware's.
      assert.match(seen.text, new RegExp(`^${c.status} ${c.type.replaceAll('.', '\\.')} "[^"]+"$`));
    });
  }

  test("a verify that throws a message quoting the body: 403 entity.verify.failed, the message in err.message (body-parser's) but in no line or record", async () => {
    witness.use(
      hostile.subject.parsers.json({
        verify: (_req, _res, buf) => {
          throw new Error(`bad signature for ${buf.toString()}`);
        },
      }) as Middleware,
    );
    const seen = await witness.post(JSON.stringify({ a: MARKER }));
    assert.equal(seen.status, 403);
    assert.match(String((seen.error as Error).message), SEEN);
    assertUnseen(seen, ['json', 'text', 'record']);
    assert.equal(seen.text, '403 entity.verify.failed "verify refused the body"');
  });

  test("a verify's own error with its own type, passed through: its message in no line or record", async () => {
    witness.use(
      hostile.subject.parsers.json({
        verify: (_req, _res, buf) => {
          throw Object.assign(new Error(`refused ${buf.toString()}`), { type: 'app.refused' });
        },
      }) as Middleware,
    );
    const seen = await witness.post(JSON.stringify({ a: MARKER }));
    assert.equal(seen.status, 403);
    assertUnseen(seen, ['json', 'text', 'record']);
    assert.equal(seen.text, '403 app.refused "verify refused the body"');
  });

  test("body-parser's entity.verify.failed recorded by the application: verify's message in no line or record", async () => {
    // body-parser (1.x, Express 4's express.json, and 2) keeps what verify threw as the message.
    const parser = bodyParser.json({
      verify: (_req, _res, buf) => {
        throw new Error(`bad signature for ${buf.toString()}`);
      },
    }) as Middleware;
    witness.use((req, res, next) =>
      parser(req, res, (err?: unknown) => {
        if (err !== undefined) hostile.subject.logger.recordError(req, err);
        next(err);
      }),
    );
    const seen = await witness.post(JSON.stringify({ a: MARKER }));
    assert.equal(seen.status, 403);
    assertUnseen(seen, ['json', 'text', 'record']);
    assert.equal(seen.text, '403 entity.verify.failed "verify refused the body"');
  });

  test("a parser's error recorded again by the application with recordError keeps httpware's text", async () => {
    const parser = hostile.subject.parsers.json({
      schema: v.object({ email: v.pipe(v.string(), v.email()) }),
    }) as Middleware;
    witness.use((req, res, next) =>
      parser(req, res, (err?: unknown) => {
        if (err !== undefined) hostile.subject.logger.recordError(req, err);
        next(err);
      }),
    );
    const seen = await witness.post(JSON.stringify({ email: MARKER }));
    assertUnseen(seen, ['json', 'text', 'record']);
    assert.equal(
      seen.text,
      '422 entity.validation.failed "invalid request body: 1 issue, at email"',
    );
  });
});
