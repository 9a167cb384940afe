// A stalled upload over the limit, under the frameworks' default error handlers (no error
// handler of the application's). Express's and Connect's (finalhandler) write their response
// only once the request has ended, which a client that stops sending mid-body never does: the
// parser's 413 would wait for ever behind it. The client must get its answer within the
// parser's bounds, and the connection closed after it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bodyParser from 'body-parser';
import { parsers } from '../../src/index.js';
import { DRAIN_LIMIT_MS } from '../../src/parsers/read-body.js';
import { rawHead, sendRaw } from '../helpers/index.js';
import { withServer } from '../helpers/parsers.js';

const LIMIT = 1024;
/** Longer than any bound of the parser's: a client still waiting by then was not answered. */
const PATIENCE_MS = 2 * DRAIN_LIMIT_MS + 1000;

const stalls: Array<[string, Record<string, string | number>, string, number]> = [
  // [what, headers, what is sent before the stall, the bound the answer must come within]
  [
    'announced far over the limit',
    { 'Content-Length': 8 * 1024 * 1024 },
    'x'.repeat(100),
    DRAIN_LIMIT_MS / 2,
  ],
  ['announced just over the limit', { 'Content-Length': 2 * LIMIT }, 'x'.repeat(100), PATIENCE_MS],
  [
    'counted over the limit (chunked)',
    { 'Transfer-Encoding': 'chunked' },
    `${(LIMIT + 1).toString(16)}\r\n${'x'.repeat(LIMIT + 1)}\r\n`,
    PATIENCE_MS,
  ],
];

for (const framework of ['express4', 'express5', 'connect'] as const) {
  describe(`a stalled upload under ${framework}'s default error handler`, () => {
    for (const [what, headers, sent, within] of stalls) {
      it(`${what}: 413 within the parser's bounds, then the connection closed`, async () => {
        await withServer(
          parsers.text({ limit: LIMIT }),
          async (server) => {
            const head = rawHead('POST', '/', { 'Content-Type': 'text/plain', ...headers });
            const started = Date.now();
            const reply = await sendRaw(server, [head, sent], { timeoutMs: PATIENCE_MS });
            assert.equal(reply.status, 413, `answered: ${JSON.stringify(reply.raw)}`);
            assert.ok(Date.now() - started < within, `answered in ${Date.now() - started} ms`);
            assert.equal(reply.ended, 'closed');
            assert.match(reply.raw, /^connection: close\r$/im);
            assert.match(reply.raw, /Payload Too Large|request entity too large/);
            const outcome = await server.nextOutcome();
            assert.equal(outcome.nextCalls, 1);
            assert.equal((outcome.error as { type?: unknown }).type, 'entity.too.large');
          },
          { framework, errors: 'framework' },
        );
      });
    }
  });
}

it("body-parser 2.4.0 leaves the same client unanswered under Express's default handler", async () => {
  // A deliberate difference (docs/migrating.md): body-parser waits for the rest of the body.
  await withServer(
    bodyParser.text({ limit: LIMIT }),
    async (server) => {
      const head = rawHead('POST', '/', {
        'Content-Type': 'text/plain',
        'Content-Length': 2 * LIMIT,
      });
      const reply = await sendRaw(server, [head, 'x'.repeat(100)], { timeoutMs: PATIENCE_MS });
      assert.equal(reply.ended, 'timeout');
      assert.equal(reply.raw, '');
    },
    { framework: 'express5', errors: 'framework' },
  );
});
