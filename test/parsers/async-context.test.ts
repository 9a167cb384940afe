import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import type { Middleware } from '../helpers/index.js';
import { exchange } from '../helpers/parsers.js';

describe('AsyncLocalStorage context', () => {
  const storage = new AsyncLocalStorage<string>();
  const seen: Array<string | undefined> = [];
  const within =
    (parser: Middleware): Middleware =>
    (req, res, next) =>
      storage.run(`request ${req.headers['x-id']}`, () =>
        parser(req, res, (err) => {
          seen.push(storage.getStore());
          next(err);
        }),
      );

  it('is still active inside next() after a parse', async () => {
    seen.length = 0;
    await exchange(within(parsers.json()), 'application/json', '{"a":1}', { 'x-id': 1 });
    assert.deepEqual(seen, ['request 1']);
  });

  it('is still active inside next() after an error', async () => {
    seen.length = 0;
    await exchange(within(parsers.json()), 'application/json', '{"a":', { 'x-id': 2 });
    await exchange(within(parsers.json({ limit: 2 })), 'application/json', '{"a":1}', {
      'x-id': 3,
    });
    assert.deepEqual(seen, ['request 2', 'request 3']);
  });

  it('is still active inside next() after inflating a compressed body', async () => {
    seen.length = 0;
    await exchange(within(parsers.json()), 'application/json', zlib.gzipSync('{}'), {
      'x-id': 4,
      'content-encoding': 'gzip',
    });
    assert.deepEqual(seen, ['request 4']);
  });
});
