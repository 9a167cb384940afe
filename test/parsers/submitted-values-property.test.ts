import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import type { StandardSchemaV1 } from '../../src/index.js';
import { hostileSetup } from '../helpers/hostile.js';
import type { Middleware } from '../helpers/index.js';
import { fc } from '../helpers/properties.js';
import { type Witness, witnessServer } from '../helpers/witness.js';

const hostile = hostileSetup();

// A property of the `schema` option through Express 5: whatever zod 4, zod 3, valibot or
// arktype schema (unions, transforms, refinements, custom messages that print the input,
// records, recursion, transforms that throw) meets whatever body, a value of the body is in
// no `json` or text line, no OpenTelemetry record, and no default response (Express's own
// error page, which carries the error's message): only keys and counts are. The bodies'
// values hold markers, a string in random case (transforms lowercase it), padded or not
// (transforms trim it), and a 9-digit number; the keys never do, as paths show keys. With
// `issueMessages: 'validator'` the issues may carry one (best effort), nothing else may.

const markOf = (i: unknown) => String((i as { input?: unknown }).input);

const Tree: z.ZodType = z.lazy(() =>
  z.strictObject({ name: z.string().min(50), next: Tree.optional() }),
);
type VTree = { name: string; next?: VTree | undefined };
const VTreeSchema: v.GenericSchema<VTree> = v.object({
  name: v.pipe(v.string(), v.minLength(50)),
  next: v.optional(v.lazy(() => VTreeSchema)),
});

const schemas: Record<string, StandardSchemaV1> = {
  'zod 4 union of objects': z.object({ a: z.literal('x') }).or(z.object({ b: z.literal('y') })),
  'zod 4 trim and lowercase, a custom message printing the input': z.object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .email({ error: (i) => `bad email ${markOf(i)}` }),
  }),
  'zod 4 transform through JSON.parse': z.object({
    code: z.string().transform((s) => JSON.parse(s) as unknown),
  }),
  'zod 4 transform through BigInt': z.object({ n: z.string().transform((s) => BigInt(s)) }),
  'zod 4 record with a refinement printing the input': z.record(
    z.string(),
    z.number().refine((n) => n === 0, { error: (i) => `not zero: ${markOf(i)}` }),
  ),
  'zod 4 recursive strictObject': Tree,
  'zod 4 array of an enum': z.array(z.enum(['admin', 'user'])),
  'zod 3 enum, which prints the value received': z3.object({ role: z3.enum(['admin', 'user']) }),
  'zod 3 refine with a message printing the value': z3.object({
    a: z3.string().refine(
      (s) => s === 'x',
      (s) => ({ message: `bad ${s}` }),
    ),
  }),
  'zod 3 union': z3.union([z3.object({ a: z3.literal('x') }), z3.object({ b: z3.number() })]),
  'valibot trim, lowercase, email': v.object({
    email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email()),
  }),
  'valibot union of objects': v.union([
    v.object({ a: v.literal('x') }),
    v.object({ b: v.literal('y') }),
  ]),
  'valibot record with a check printing the input': v.record(
    v.string(),
    v.pipe(
      v.number(),
      v.check(
        (n) => n === 0,
        (i) => `bad ${markOf(i)}`,
      ),
    ),
  ),
  'valibot picklist': v.object({ role: v.picklist(['admin', 'user']) }),
  'valibot recursive object': VTreeSchema,
  'arktype union of objects': type({ a: "'x'" }).or({ b: "'y'" }),
  'arktype string.trim then email': type({
    email: type('string.trim').pipe(type('string.email')),
  }),
  'arktype string.lower then email': type({
    email: type('string.lower').pipe(type('string.email')),
  }),
  'arktype narrow with a message printing the value': type({
    a: type('string').narrow((s, ctx) => s === 'x' || ctx.mustBe(`x, not ${s}`)),
  }),
  'arktype literals and numbers': type({ role: "'admin' | 'user'", 'n?': 'number > 0' }),
};
const names = Object.keys(schemas);

const KEYS = ['a', 'b', 'email', 'code', 'n', 'role', 'name', 'next', 'items'] as const;

/** A body's leaf: a benign value or a marker, in one of the forms transforms meet. */
type Leaf = { marker: 'string' | 'padded' | 'quoted' | 'number' } | { plain: unknown };

const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('string', 'padded', 'quoted', 'number').map((marker) => ({
      marker,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('x', 'y', 'admin', 0, 1, -1, true, null).map((plain) => ({ plain })),
  },
);

const { body } = fc.letrec((tie) => ({
  // An object or an array: a top-level string is a strict JSON parser's 400, not the schema's.
  body: fc.oneof({ depthSize: 'small' }, tie('object'), tie('array')),
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 4 }),
  array: fc.array(tie('node'), { maxLength: 4 }),
}));

/** The marker in random case: `Mk` + letters and digits, unlike any word a validator writes. */
const marker = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{8}$/), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
  .map(
    ([text, upper]) => `Mk${[...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}Qz`,
  );
const numberMarker = fc.integer({ min: 700_000_000, max: 799_999_999 });

function materialize(template: unknown, text: string, number: number): unknown {
  if (Array.isArray(template)) return template.map((t) => materialize(t, text, number));
  if (typeof template !== 'object' || template === null) return template;
  if ('plain' in template) return (template as { plain: unknown }).plain;
  const kind = (template as { marker?: string }).marker;
  if (kind === 'string') return text;
  if (kind === 'padded') return `  ${text} `;
  if (kind === 'quoted') return `"${text}"`;
  if (kind === 'number') return number;
  return Object.fromEntries(
    Object.entries(template).map(([key, t]) => [key, materialize(t, text, number)]),
  );
}

let witness: Witness;
/** Each schema's parser, with the default issue messages and with the validator's. */
const parsers = new Map<string, Middleware>();
const validatorParsers = new Map<string, Middleware>();
before(async () => {
  await hostile.ready;
  witness = await witnessServer(hostile.subject);
  for (const name of names) {
    const schema = schemas[name];
    parsers.set(name, hostile.subject.parsers.json({ schema }) as Middleware);
    validatorParsers.set(
      name,
      hostile.subject.parsers.json({ schema, issueMessages: 'validator' }) as Middleware,
    );
  }
});
after(() => witness.close());

test("no value of the body in any line, record or default error response, for any schema; with issueMessages: 'validator', in the lines and response still", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...names),
      body,
      marker,
      numberMarker,
      fc.boolean(),
      async (name, template, text, number, validatorMessages) => {
        witness.use((validatorMessages ? validatorParsers : parsers).get(name) as Middleware);
        const seen = await witness.post(JSON.stringify(materialize(template, text, number)));
        const found = new RegExp(`${text}|(?<![0-9])${number}(?![0-9])`, 'i');
        const places: Record<string, string> = {
          json: seen.json,
          text: seen.text,
          record: seen.record,
        };
        if (seen.status >= 400) {
          const err = seen.error as { message?: unknown; issues?: unknown };
          places.response = seen.response;
          places.message = String(err.message);
          // The validator's messages, opted in, are best effort only.
          if (!validatorMessages) places.issues = JSON.stringify(err.issues ?? []);
        }
        for (const [place, written] of Object.entries(places)) {
          assert.doesNotMatch(written, found, `${name}: the value in the ${place}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});
