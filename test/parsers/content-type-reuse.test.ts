// Each parser keeps the last Content-Type header it parsed (and whether it matched) to spare
// the next request with the same header the work: a different header in between must never
// be answered with a stale media type, match or charset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { post, withServer } from '../helpers/parsers.js';

describe('reusing the last Content-Type', () => {
  it('answers each request after its own header, whatever came before', async () => {
    const json = parsers.json();
    await withServer(json, async (server) => {
      const seen: string[] = [];
      const headers = [
        'application/json',
        'text/plain',
        'application/json',
        'application/json; charset=latin1',
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'text/plain',
        'text/plain',
      ];
      for (const type of headers) {
        const { outcome } = await post(server, type, '{"a":1}');
        const err = outcome.error as { type?: string } | undefined;
        seen.push(err ? `error ${err.type}` : (JSON.stringify(outcome.body) ?? 'undefined'));
      }
      assert.deepEqual(seen, [
        '{"a":1}',
        'undefined',
        '{"a":1}',
        'error charset.unsupported',
        '{"a":1}',
        '{"a":1}',
        '{"a":1}',
        '{"a":1}',
        'undefined',
        'undefined',
      ]);
    });
  });

  it('keeps the parsers created separately apart', async () => {
    const json = parsers.json();
    const text = parsers.text();
    await withServer([json, text], async (server) => {
      const first = await post(server, 'text/plain', 'hello');
      assert.equal(first.outcome.body, 'hello');
      const second = await post(server, 'application/json', '{"b":2}');
      assert.deepEqual(second.outcome.body, { b: 2 });
      const third = await post(server, 'text/plain', 'again');
      assert.equal(third.outcome.body, 'again');
    });
  });
});
