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

// Forms of more than 100 parameters, which httpware splits itself before qs sees them.
const longCombos = combos.map((c) => ({ ...c, parameterLimit: 1000 }));
const longBody = fc
  .array(
    fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((p) => p.join('')),
    { minLength: 101, maxLength: 140 },
  )
  .map((pairs) => pairs.join('&'));

function side(factory: (o: object) => Middleware, options = combos): Middleware {
  const built = options.map((c) => factory(c));
  return (req, res, next) => (built[Number(req.headers['x-combo'])] as Middleware)(req, res, next);
}

describe('urlencoded equivalence with body-parser', () => {
  let ours: TestServer;
  let theirs: TestServer;
  let oursLong: TestServer;
  let theirsLong: TestServer;
  before(async () => {
    ours = await startServer({ middleware: [side(parsers.urlencoded as never)] });
    theirs = await startServer({ middleware: [side(bodyParser.urlencoded as never)] });
    oursLong = await startServer({ middleware: [side(parsers.urlencoded as never, longCombos)] });
    theirsLong = await startServer({
      middleware: [side(bodyParser.urlencoded as never, longCombos)],
    });
  });
  after(async () => {
    await Promise.all([ours, theirs, oursLong, theirsLong].map((server) => server.close()));
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

  it('gives the same body or error for random forms of over 100 parameters', async () => {
    await sameAsBodyParser(longBody, () => [oursLong, theirsLong], 100);
  });
});
