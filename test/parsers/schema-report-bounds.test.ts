import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { StandardSchemaV1 } from '../../src/index.js';
import { hostileSetup } from '../helpers/hostile.js';
import type { Middleware } from '../helpers/index.js';
import { type Seen, type Witness, witnessServer } from '../helpers/witness.js';

const hostile = hostileSetup();

// The 422's `issues` are bounded in bytes and cheap to build, whatever the body: its keys are
// the client's own (a record schema's), so they are cut, their control characters replaced,
// and the list stops at 8 KiB of JSON; and nothing of the body is stringified per issue, so a
// deep body with a large value costs what the validator costs.

const MAX_ISSUES_BYTES = 8 * 1024;

let witness: Witness;
before(async () => {
  await hostile.ready;
  witness = await witnessServer(hostile.subject);
});
after(() => witness.close());

interface Issues {
  readonly issues: readonly { path: readonly (string | number)[]; message: string }[];
  readonly message: string;
}

async function refused(schema: StandardSchemaV1, body: unknown, limit = '1mb'): Promise<Seen> {
  witness.use(hostile.subject.parsers.json({ schema, limit }) as Middleware);
  const seen = await witness.post(JSON.stringify(body));
  assert.equal(seen.status, 422, seen.response);
  return seen;
}

/** Records nested `depth` deep, numbers at the bottom. */
function nestedRecords(depth: number): z.ZodType {
  let schema: z.ZodType = z.record(z.string(), z.number());
  for (let i = 1; i < depth; i++) schema = z.record(z.string(), schema);
  return schema;
}

/** `leaf` under `depth - 1` levels of the key `key`. */
function nestedBody(depth: number, key: string, leaf: unknown): unknown {
  let body = leaf;
  for (let i = 1; i < depth; i++) body = { [key]: body };
  return body;
}

/** 100 strings where the records want numbers, under keys made of `key`. */
function hundredLeaves(key: string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${key}${i}`, 'x']));
}

describe("a schema's 422 report", () => {
  test('records nested 32 deep with 100 leaf issues: the issues are at most 8 KiB of JSON', async () => {
    const key = 'k'.repeat(60);
    const seen = await refused(nestedRecords(32), nestedBody(32, key, hundredLeaves(key)));
    const err = seen.error as Issues;
    const bytes = Buffer.byteLength(JSON.stringify(err.issues));
    assert.ok(bytes <= MAX_ISSUES_BYTES, `${bytes} bytes of issues`);
    assert.ok(err.issues.length >= 3, `${err.issues.length} issues kept`);
    assert.match(err.message, /^invalid request body: 100 issues, first at k{60}\./);
    // The next issue would not have fitted.
    assert.ok(bytes + Buffer.byteLength(JSON.stringify(err.issues[0])) > MAX_ISSUES_BYTES);
  });

  test('keys of control characters (\\u0001) become U+FFFD, and the issues stay within 8 KiB', async () => {
    const key = '\u0001'.repeat(60);
    const seen = await refused(nestedRecords(32), nestedBody(32, key, hundredLeaves(key)));
    const err = seen.error as Issues;
    assert.ok(Buffer.byteLength(JSON.stringify(err.issues)) <= MAX_ISSUES_BYTES);
    assert.deepEqual(err.issues[0]?.path.slice(0, 2), ['\ufffd'.repeat(60), '\ufffd'.repeat(60)]);
    assert.ok(seen.json.length < 4096, `a line of ${seen.json.length} characters`);
  });

  test("the 422's message is at most 300 characters, however long the first issue's path", async () => {
    const key = 'k'.repeat(64);
    const seen = await refused(nestedRecords(32), nestedBody(32, key, hundredLeaves(key)));
    const message = (seen.error as Issues).message;
    assert.ok(message.length <= 300, `${message.length} characters`);
    assert.match(message, /^invalid request body: 100 issues, first at (k{64}\.)+k+…$/);
  });

  test('replaces C0, DEL, C1, U+2028, U+2029, lone surrogates, zero-width and bidi characters in keys, and keeps a surrogate pair', async () => {
    const keys = [
      'a\u200bb',
      'a\u200fb',
      'a\u202eb',
      'a\u2066b',
      'a\ufeffb',
      'a\u0000b',
      'a\u007fb',
      'a\u0085b',
      'a\u2028b',
      'a\u2029b',
      'a\ud800b',
      'a\udc00b',
    ];
    const body = Object.fromEntries([...keys, 'a\ud83d\ude00b'].map((key) => [key, 'x']));
    const seen = await refused(z.record(z.string(), z.number()), body);
    assert.deepEqual(
      (seen.error as Issues).issues.map((issue) => issue.path),
      [...keys.map(() => ['a\ufffdb']), ['a\ud83d\ude00b']],
    );
  });

  test('a key of 100 characters is cut at 64, and a surrogate pair the cut splits is replaced', async () => {
    const seen = await refused(z.record(z.string(), z.number()), {
      [`${'a'.repeat(62)}\ud83d\ude00${'b'.repeat(36)}`]: 'x',
    });
    assert.deepEqual((seen.error as Issues).issues[0]?.path, [`${'a'.repeat(62)}\ufffd…`]);
  });

  test("issueMessages: 'validator' stringifies no part of the body, at any issue's path", async () => {
    // Every object of the body has a toJSON (not enumerable, so no key to the schema) that
    // counts: a report that stringified the value at an issue's path (which once cost seconds
    // for a 99-deep body of 4 MB) would call it.
    let stringified = 0;
    const toJSON = () => {
      stringified++;
      return {};
    };
    const parse = (text: string): unknown =>
      JSON.parse(text, (_key, value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.defineProperty(value, 'toJSON', { value: toJSON })
          : value,
      );
    const Node: z.ZodType = z.lazy(() =>
      z.strictObject({ next: Node.optional(), leaf: z.string().optional() }),
    );
    // 30 deep, so that every issue's path is within the 32 keys the report reads.
    let body: Record<string, unknown> = { leaf: 'y'.repeat(1000), extra: 0 };
    for (let i = 1; i < 30; i++) body = { next: body, [`extra${i}`]: i };
    witness.use(
      hostile.subject.parsers.json({
        schema: Node,
        parse,
        issueMessages: 'validator',
      }) as Middleware,
    );
    const seen = await witness.post(JSON.stringify(body));
    assert.equal(seen.status, 422, seen.response);
    assert.equal((seen.error as Issues).issues.length, 30);
    assert.equal(stringified, 0);
  });
});
