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

function side(factory: (o: object) => Middleware): Middleware {
  const built = combos.map((c) => factory(c));
  return (req, res, next) => (built[Number(req.headers['x-combo'])] as Middleware)(req, res, next);
}

describe('urlencoded equivalence with body-parser', () => {
  let ours: TestServer;
  let theirs: TestServer;
  before(async () => {
    ours = await startServer({ middleware: [side(parsers.urlencoded as never)] });
    theirs = await startServer({ middleware: [side(bodyParser.urlencoded as never)] });
  });
  after(async () => {
    await ours.close();
    await theirs.close();
  });

  it('gives the same body or error for random forms', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.integer({ min: 0, max: combos.length - 1 }),
        fc.constantFrom('utf-8', 'iso-8859-1'),
        async (form, combo, charset) => {
          const type = `application/x-www-form-urlencoded; charset=${charset}`;
          const headers = { 'x-combo': String(combo) };
          const a = await post(ours, type, form, headers);
          const b = await post(theirs, type, form, headers);
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
      { numRuns: 300 },
    );
  });
});
