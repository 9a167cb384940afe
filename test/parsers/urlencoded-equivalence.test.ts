// Property test: random forms give body-parser 2.4.0's `req.body` (or its error), in both
// grammars and both charsets, with and without the charset sentinel and numeric entities.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import bodyParser from 'body-parser';
import { parsers } from '../../src/index.js';
import type { Middleware, TestServer } from '../helpers/index.js';
import { startServer } from '../helpers/index.js';
import { post } from '../helpers/parsers.js';
import { fc } from '../helpers/properties.js';

const combos = [false, true].flatMap((extended) =>
  [false, true].flatMap((charsetSentinel) =>
    [false, true].map((interpretNumericEntities) => ({
      extended,
      charsetSentinel,
      interpretNumericEntities,
      depth: 3,
      parameterLimit: 20,
    })),
  ),
);

const pieces = [
  'a',
  'b',
  '0',
  '1',
  '12',
  '=',
  '&',
  '[',
  ']',
  '[]',
  '%5B',
  '%5d',
  '+',
  '%20',
  '%41',
  '%7e',
  '%7F',
  '%80',
  '%4',
  '%E9',
  '%C3%A9',
  '%c3%a9',
  // UTF-8 escapes as browsers write them (2, 3 and 4 bytes, the last a surrogate pair), then
  // sequences decodeURIComponent refuses (the value is then kept as written): cut short, a
  // lone continuation byte, overlong forms, an encoded surrogate, past U+10FFFF, a byte no
  // UTF-8 has. Together with `+` and `%` they also make broken sequences (`%E2+%82`).
  '%E2%82%AC',
  '%F0%9F%98%80',
  '%E2%82',
  '%BF',
  '%C0%AF',
  '%E0%80%AF',
  '%F0%80%80%AF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%F5',
  '%EF%BB%BF',
  '%2B',
  '%25',
  'é',
  '%zz',
  '%',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'utf8=%E2%9C%93',
  'utf8=%26%2310003%3B',
  '&#8364;',
  '%26%238364%3B',
  '.',
  ']=',
];

const body = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((p) => p.join(''));

// Forms as a browser encodes them (URLSearchParams is the URL Standard's serializer): `+` for
// spaces, everything else outside `*-._` and the alphanumerics as UTF-8 escapes, any text.
const browserForm = fc
  .array(fc.tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary' })), {
    maxLength: 8,
  })
  .map((pairs) => new URLSearchParams(pairs).toString());

// Forms of more than 100 parameters, which httpware splits itself before qs sees them.
const longCombos = combos.map((c) => ({ ...c, parameterLimit: 1000 }));
const longBody = fc
  .array(
    fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((p) => p.join('')),
    { minLength: 101, maxLength: 140 },
  )
  .map((pairs) => pairs.join('&'));

// Forms of bracketed keys as pages write them (`user[address][city]`, `items[0][sku]`,
// `tags[]`), mixed with the keys qs reads in its own ways (a group in a group, text after a
// group, `[]` before the last group, indexes past the array limit, prototype names), so that
// the same names meet as values, objects and arrays. With the extended grammar's depths.
const nestedCombos = [32, 2, 0].map((depth) => ({ extended: true, depth }));
const oddKey = fc
  .tuple(
    fc.constantFrom('a', 'a', 'b', '0', 'constructor', '__proto__', 'toString', '', 'c]'),
    fc.array(
      fc.constantFrom(
        '[]',
        '[0]',
        '[1]',
        '[2]',
        '[5]',
        '[x]',
        '[y]',
        '[01]',
        '[-1]',
        '[ 1]',
        '[99]',
        '[150]',
        '[__proto__]',
        '[toString]',
        '[a[b]]',
        '[',
        ']',
        'z',
        '%5B0%5D',
      ),
      { maxLength: 4 },
    ),
  )
  .map(([name, groups]) => name + groups.join(''));
// The same few names and groups, so that keys meet often.
const commonKey = fc
  .tuple(
    fc.constantFrom('a', 'b'),
    fc.array(fc.constantFrom('[]', '[0]', '[1]', '[2]', '[x]', '[y]'), { maxLength: 3 }),
  )
  .map(([name, groups]) => name + groups.join(''));
const nestedKey = fc.oneof({ arbitrary: commonKey, weight: 3 }, { arbitrary: oddKey, weight: 1 });
const nestedPair = fc
  .tuple(nestedKey, fc.option(fc.constantFrom('', 'v', 'w', '1', '%41', '+')))
  .map(([key, value]) => (value === null ? key : `${key}=${value}`));
const nestedBody = fc
  .oneof(
    fc.array(nestedPair, { minLength: 1, maxLength: 8 }),
    fc.array(nestedPair, { minLength: 101, maxLength: 130 }),
  )
  .map((pairs) => pairs.join('&'));

function side(factory: (o: object) => Middleware, options: readonly object[] = combos): Middleware {
  const built = options.map((c) => factory(c));
  return (req, res, next) => (built[Number(req.headers['x-combo'])] as Middleware)(req, res, next);
}

describe('urlencoded equivalence with body-parser', () => {
  let ours: TestServer;
  let theirs: TestServer;
  let oursLong: TestServer;
  let theirsLong: TestServer;
  let oursNested: TestServer;
  let theirsNested: TestServer;
  before(async () => {
    ours = await startServer({ middleware: [side(parsers.urlencoded as never)] });
    theirs = await startServer({ middleware: [side(bodyParser.urlencoded as never)] });
    oursLong = await startServer({ middleware: [side(parsers.urlencoded as never, longCombos)] });
    oursNested = await startServer({
      middleware: [side(parsers.urlencoded as never, nestedCombos)],
    });
    theirsNested = await startServer({
      middleware: [side(bodyParser.urlencoded as never, nestedCombos)],
    });
    theirsLong = await startServer({
      middleware: [side(bodyParser.urlencoded as never, longCombos)],
    });
  });
  after(async () => {
    await Promise.all(
      [ours, theirs, oursLong, theirsLong, oursNested, theirsNested].map((server) =>
        server.close(),
      ),
    );
  });

  /** Random forms posted to both servers with a random combination of options. */
  const sameAsBodyParser = (
    forms: fc.Arbitrary<string>,
    servers: () => [TestServer, TestServer],
    numRuns: number,
  ) =>
    fc.assert(
      fc.asyncProperty(
        forms,
        fc.integer({ min: 0, max: combos.length - 1 }),
        fc.constantFrom('utf-8', 'iso-8859-1'),
        async (form, combo, charset) => {
          const [mine, reference] = servers();
          const type = `application/x-www-form-urlencoded; charset=${charset}`;
          const headers = { 'x-combo': String(combo) };
          const a = await post(mine, type, form, headers);
          const b = await post(reference, type, form, headers);
          const view = (x: typeof a) => {
            const err = x.outcome.error as { type?: string; message?: string } | undefined;
            return err ? { type: err.type, message: err.message } : { body: x.outcome.body };
          };
          assert.deepEqual(
            view(a),
            view(b),
            `${form} (${JSON.stringify(combos[combo])}, ${charset})`,
          );
        },
      ),
      { numRuns },
    );

  it('gives the same body or error for random forms', async () => {
    await sameAsBodyParser(body, () => [ours, theirs], 300);
  });

  it('gives the same body or error for forms as browsers encode them', async () => {
    await sameAsBodyParser(browserForm, () => [ours, theirs], 200);
  });

  it('gives the same body or error for random forms of over 100 parameters', async () => {
    await sameAsBodyParser(longBody, () => [oursLong, theirsLong], 100);
  });

  it('gives the same nested body, its keys in the same order, for forms of bracketed keys', async () => {
    await fc.assert(
      fc.asyncProperty(
        nestedBody,
        fc.integer({ min: 0, max: nestedCombos.length - 1 }),
        async (form, combo) => {
          const type = 'application/x-www-form-urlencoded';
          const headers = { 'x-combo': String(combo) };
          const a = await post(oursNested, type, form, headers);
          const b = await post(theirsNested, type, form, headers);
          const view = (x: typeof a) => {
            const err = x.outcome.error as { type?: string; message?: string } | undefined;
            // As JSON text: the order of the keys too.
            return err ? `${err.type} ${err.message}` : JSON.stringify(x.outcome.body);
          };
          assert.equal(view(a), view(b), `${form} (${JSON.stringify(nestedCombos[combo])})`);
        },
      ),
      { numRuns: 500 },
    );
  });
});
