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

describe('an async verify', () => {
  it('is awaited before the body is parsed', async () => {
    const order: string[] = [];
    const parser = parsers.json({
      verify: async () => {
        order.push('verify starts');
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('verify ends');
      },
      reviver: (key, value) => {
        if (key === '') order.push('parsed');
        return value;
      },
    });
    assertBody(await exchange(parser, 'application/json', '{"a":1}'), { a: 1 });
    assert.deepEqual(order, ['verify starts', 'verify ends', 'parsed']);
  });

  it('refuses the body when its promise rejects, as a throw does: 403, or the error’s own status', async () => {
    const parser = parsers.text({ verify: () => Promise.reject(new Error('no')) });
    const result = await exchange(parser, 'text/plain', 'x');
    const err = assertError(result, 403, 'entity.verify.failed', 'no', { body: Buffer.from('x') });
    assert.ok((err as { cause?: unknown }).cause instanceof Error);
    const signed = parsers.text({
      verify: async () => {
        throw Object.assign(new Error('bad signature'), { status: 401 });
      },
    });
    assertError(
      await exchange(signed, 'text/plain', 'x'),
      401,
      'entity.verify.failed',
      'bad signature',
    );
  });

  it('gives up on a promise that never settles after verifyTimeout: 500 entity.verify.timeout, next once, nothing parsed', async () => {
    let parsed = false;
    const parser = parsers.json({
      verify: () => new Promise(() => {}),
      verifyTimeout: 100,
      reviver: (_key, value) => {
        parsed = true;
        return value;
      },
    });
    const started = Date.now();
    const result = await exchange(parser, 'application/json', '{"a":1}');
    const elapsed = Date.now() - started;
    assertError(result, 500, 'entity.verify.timeout', 'verify did not settle within 100 ms', {
      timeout: 100,
    });
    assert.equal(result.outcome.body, undefined);
    assert.equal(parsed, false);
    assert.ok(elapsed >= 100 && elapsed < 3000, `answered after ${elapsed} ms`);
  });

  it('ignores a promise that settles after the timeout, even one that rejects', async () => {
    let reject: (reason: unknown) => void = () => {};
    const parser = parsers.text({
      verify: () => new Promise((_resolve, fail) => (reject = fail)),
      verifyTimeout: 30,
    });
    const result = await exchange(parser, 'text/plain', 'x');
    assertError(result, 500, 'entity.verify.timeout', /did not settle/);
    reject(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(result.outcome.nextCalls, 1);
  });

  it('refuses a verifyTimeout that setTimeout cannot wait for, at creation', () => {
    for (const verifyTimeout of [0, -5, Number.NaN, 2 ** 31, '1s']) {
      assert.throws(() => parsers.raw({ verifyTimeout: verifyTimeout as never }), {
        name: 'TypeError',
        message: 'option verifyTimeout must be a number of milliseconds from 1 to 2147483647',
      });
    }
  });
});
