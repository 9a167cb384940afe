import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { captureLines, type LineCapture, startServer, type TestServer } from '../helpers/index.js';
import { fixTime } from '../helpers/logger.js';
import { fc } from '../helpers/properties.js';

// The fields a logger adds after its format's own (the body fields of option `body`, then
// `sampling.rate` and `slow`) are added to the preset lines, written straight, and to the
// generic renderer's lines alike: for arbitrary bodies, a preset's line with them equals the
// line of a copy of its field map with them (the body fields on `json` lines only: see below). Time is frozen at a step of 0, so every request
// takes 0 ms and `slow: 0` makes each one slow.

let body: unknown;
let server: TestServer;
let undoTime: () => void;
const pairs: Array<{ preset: LineCapture; generic: LineCapture }> = [];

before(async () => {
  undoTime = fixTime(0);
  const middleware: Array<
    (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void
  > = [
    (req, _res, next) => {
      (req as { body?: unknown }).body = body;
      next();
    },
  ];
  const optionSets = [
    { body: { fields: ['name', 'item.sku'] } },
    { sample: { rate: 1, traceId: false } },
    { body: { fields: ['name'] }, sample: { rate: 1, traceId: false }, slow: 0 },
  ];
  for (const name of ['json', 'ecs'] as const) {
    const copy = { ...logger.json.presets[name] };
    // The `ecs` preset writes the body fields in ECS's own field, which a copy of its map (not
    // the preset) does not: compared without them.
    for (const options of name === 'ecs' ? optionSets.slice(1, 2) : optionSets) {
      const pair = { preset: captureLines(), generic: captureLines() };
      pairs.push(pair);
      middleware.push(logger(name, { stream: pair.preset.stream, ...options }));
      middleware.push(logger(logger.json(copy), { stream: pair.generic.stream, ...options }));
    }
  }
  server = await startServer({ middleware });
});

after(async () => {
  await server.close();
  undoTime();
});

const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));

test('the json and ecs presets add the body, sampling and slow fields as their generic copies do', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.option(
        fc.record(
          { name: value, item: fc.option(fc.record({ sku: value }), { nil: undefined }) },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      ),
      async (given) => {
        body = given;
        const starts = pairs.map(({ preset }) => preset.lines.length);
        await (await fetch(`${server.origin}/items?page=2`)).text();
        for (const [i, { preset, generic }] of pairs.entries()) {
          const at = starts[i] as number;
          const lines = await preset.waitFor(at + 1);
          const expected = await generic.waitFor(at + 1);
          assert.equal(lines[at], expected[at]);
        }
      },
    ),
    { numRuns: 40 },
  );
});
