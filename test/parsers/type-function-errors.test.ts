// A `type` function is application code: what it throws must reach the host's error path once,
// through `next(err)`, in plain node:http as in Express (which would also catch a throw).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import type { ParserMiddleware } from '../../src/parsers/types.js';
import { type AnyParser, exchange } from '../helpers/parsers.js';

const refusal = new Error('type check failed');
const throwingType = () => {
  throw refusal;
};

interface Seen {
  nextErrors: unknown[];
  thrown: unknown[];
}

/**
 * A bare node:http server, with no helper between it and the middleware that could catch a
 * throw: the listener records what `next` received and anything thrown out of the call.
 */
async function bareServerRun(parser: ParserMiddleware): Promise<Seen & { status: number }> {
  const seen: Seen = { nextErrors: [], thrown: [] };
  const server = http.createServer((req, res) => {
    try {
      parser(req, res, (err?: unknown) => {
        seen.nextErrors.push(err);
        res.statusCode = err === undefined ? 200 : 500;
        res.end();
      });
    } catch (thrown) {
      seen.thrown.push(thrown);
      res.statusCode = 599;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const reply = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    await reply.arrayBuffer();
    // Give a second `next` call, if any, the time to show.
    await new Promise((resolve) => setImmediate(resolve));
    return { ...seen, status: reply.status };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('a type function that throws', () => {
  for (const name of ['json', 'raw', 'text', 'urlencoded'] as const) {
    it(`passes the thrown error to next once under node:http (${name})`, async () => {
      const result = await bareServerRun((parsers[name] as AnyParser)({ type: throwingType }));
      assert.deepEqual(result.thrown, [], 'nothing thrown out of the middleware');
      assert.deepEqual(result.nextErrors, [refusal]);
      assert.equal(result.status, 500);
    });
  }

  for (const framework of ['express4', 'express5'] as const) {
    it(`passes the thrown error to next once in ${framework}`, async () => {
      const result = await exchange(
        parsers.json({ type: throwingType }),
        'application/json',
        '{"a":1}',
        {},
        framework,
      );
      assert.equal(result.outcome.error, refusal);
      assert.equal(result.outcome.nextCalls, 1);
      assert.equal(result.outcome.body, undefined);
    });
  }
});
