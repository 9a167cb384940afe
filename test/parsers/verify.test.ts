import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const leadingSpace = (_req: unknown, _res: unknown, buf: Buffer) => {
  if (buf[0] === 0x20) throw new Error('no leading space');
};

describe('the verify option', () => {
  it('receives req, res, the raw bytes and the charset, and lets the body through', async () => {
    const calls: unknown[][] = [];
    const parser = parsers.json({
      verify: (req, res, buf, encoding) => calls.push([typeof req, typeof res, buf, encoding]),
    });
    assertBody(await exchange(parser, 'application/json', '{"a":1}'), { a: 1 });
    assert.deepEqual(calls, [['object', 'object', Buffer.from('{"a":1}'), 'utf-8']]);
  });

  it('passes null as the encoding for the raw parser', async () => {
    let seen: unknown = 'unset';
    const parser = parsers.raw({
      verify: (_req, _res, _buf, encoding) => {
        seen = encoding;
      },
    });
    await exchange(parser, 'application/octet-stream', 'x');
    assert.equal(seen, null);
  });

  it('refuses the body with 403 entity.verify.failed when verify throws', async () => {
    const result = await exchange(
      parsers.json({ verify: leadingSpace }),
      'application/json',
      ' {"a":1}',
    );
    const err = assertError(result, 403, 'entity.verify.failed', 'no leading space', {
      body: Buffer.from(' {"a":1}'),
    });
    assert.ok((err as { cause?: unknown }).cause instanceof Error);
  });

  it('keeps the status of the thrown error', async () => {
    const verify = () => {
      throw Object.assign(new Error('bad signature'), { status: 401 });
    };
    const result = await exchange(parsers.text({ verify }), 'text/plain', 'x');
    assertError(result, 401, 'entity.verify.failed', 'bad signature');
  });

  it("keeps the type of the thrown error (the application's own kind)", async () => {
    const thrown = Object.assign(new Error('custom'), { type: 'foo.bar' });
    const verify = () => {
      throw thrown;
    };
    const result = await exchange(parsers.text({ verify }), 'text/plain', 'x');
    const err = assertError(result, 403, 'foo.bar', 'custom', { body: Buffer.from('x') });
    assert.equal(err, thrown);
  });

  it('verifies the inflated bytes of a compressed body', async () => {
    let seen: Buffer | undefined;
    const parser = parsers.text({
      verify: (_q, _s, buf) => {
        seen = buf;
      },
    });
    const { gzipSync } = await import('node:zlib');
    await exchange(parser, 'text/plain', gzipSync('hello'), { 'content-encoding': 'gzip' });
    assert.deepEqual(seen, Buffer.from('hello'));
  });

  it('verifies before decoding other charsets', async () => {
    let seen: Buffer | undefined;
    const body = iconv.encode('{"n":"论"}', 'utf-16le');
    const parser = parsers.json({
      verify: (_q, _s, buf) => {
        seen = buf;
      },
    });
    assertBody(await exchange(parser, 'application/json; charset=utf-16le', body), { n: '论' });
    assert.deepEqual(seen, body);
  });

  it('refuses an unknown charset before verify runs', async () => {
    let called = false;
    const parser = parsers.text({
      verify: () => {
        called = true;
      },
    });
    const result = await exchange(parser, 'text/plain; charset=x-bogus', 'x');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "X-BOGUS"');
    assert.equal(called, false);
  });
});
