// Regressions found by running a reconstruction of body-parser 2.4.0's own test suite and a
// differential probe against it: application errors are reported as http-errors reports them,
// `defaultCharset` is used as given, and options body-parser accepts are accepted alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import type { Middleware } from '../helpers/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const json = 'application/json';
const form = 'application/x-www-form-urlencoded';

function throwing(value: unknown) {
  return () => {
    throw value;
  };
}

describe('errors thrown by verify, as http-errors reports them', () => {
  it('makes a thrown status that is not an HTTP status a 500', async () => {
    for (const status of [999, '400', 99]) {
      const parser = parsers.json({
        verify: throwing(Object.assign(new Error('odd status'), { status })),
      });
      const result = await exchange(parser, json, '{"a":1}');
      assertError(result, 500, 'entity.verify.failed', 'odd status');
    }
  });

  it('keeps a thrown statusCode that is an HTTP status', async () => {
    const parser = parsers.json({
      verify: throwing(Object.assign(new Error('unprocessable'), { statusCode: 422 })),
    });
    assertError(await exchange(parser, json, '{}'), 422, 'entity.verify.failed', 'unprocessable');
  });

  it("passes an error with any truthy type through as the application's own", async () => {
    const parser = parsers.json({ verify: throwing(Object.assign(new Error('x'), { type: 5 })) });
    const result = await exchange(parser, json, '{}');
    assertError(result, 403, 5 as unknown as string, 'x', { body: Buffer.from('{}') });
  });

  it("gives a thrown non-Error object the status's own text, not its properties", async () => {
    const parser = parsers.json({ verify: throwing({ message: 'mine', status: 401 }) });
    assertError(await exchange(parser, json, '{}'), 403, 'entity.verify.failed', 'Forbidden');
  });

  it('uses a thrown string as the message', async () => {
    const parser = parsers.json({ verify: throwing('nope') });
    assertError(await exchange(parser, json, '{}'), 403, 'entity.verify.failed', 'nope');
  });
});

describe('errors thrown by the JSON reviver', () => {
  it('are a 400 entity.parse.failed whatever status and type they carry', async () => {
    const parser = parsers.json({
      reviver: throwing(Object.assign(new Error('bad value'), { status: 422, type: 'mine' })),
    });
    const result = await exchange(parser, json, '{"a":1}');
    const err = assertError(result, 400, 'entity.parse.failed', 'bad value', { body: '{"a":1}' });
    assert.ok(!(err instanceof SyntaxError));
  });

  it('ignores a reviver that is not a function, as JSON.parse and body-parser do', async () => {
    for (const reviver of ['x', false, 0, {}]) {
      const parser = parsers.json({ reviver: reviver as never });
      assertBody(await exchange(parser, json, '{"a":1}'), { a: 1 });
    }
  });
});

describe('defaultCharset, used as given', () => {
  it('hands verify the defaultCharset in its own case', async () => {
    let seen: unknown;
    const parser = parsers.text({
      defaultCharset: 'KOI8-R',
      verify: (_req, _res, _buf, encoding) => {
        seen = encoding;
      },
    });
    assertBody(await exchange(parser, 'text/plain', Buffer.from('cec5d4', 'hex')), 'нет');
    assert.equal(seen, 'KOI8-R');
  });

  it('lower-cases the Content-Type charset', async () => {
    let seen: unknown;
    const parser = parsers.text({
      verify: (_req, _res, _buf, encoding) => {
        seen = encoding;
      },
    });
    await exchange(parser, 'text/plain; charset=KOI8-R', Buffer.from('cec5d4', 'hex'));
    assert.equal(seen, 'koi8-r');
  });

  it('refuses an upper-case utf default for json, naming it as given', async () => {
    const parser = parsers.json({ defaultCharset: 'UTF-8' } as never);
    const result = await exchange(parser, json, '{}');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "UTF-8"', {
      charset: 'UTF-8',
    });
  });

  it('reports an unknown text default lower-cased', async () => {
    const parser = parsers.text({ defaultCharset: 'X-Bogus' });
    const result = await exchange(parser, 'text/plain', 'abc');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "X-BOGUS"', {
      charset: 'x-bogus',
    });
  });
});

describe('urlencoded depth: false', () => {
  it('is depth 0 (flat keys), as qs reads it', async () => {
    const parser = parsers.urlencoded({ extended: true, depth: false as never });
    assertBody(await exchange(parser, form, 'a[b][c]=1'), { 'a[b][c]': '1' });
  });
});

describe('a request marked unreadable with a compressed body', () => {
  it('is read through the decompressor, as body-parser does', async () => {
    const parser = parsers.json();
    const unreadable: Middleware = (req, res, next) => {
      Object.defineProperty(req, 'readable', { value: false, configurable: true });
      parser(req, res, next);
    };
    const result = await exchange(unreadable, json, zlib.gzipSync('{"a":1}'), {
      'content-encoding': 'gzip',
    });
    assertBody(result, { a: 1 });
  });
});
