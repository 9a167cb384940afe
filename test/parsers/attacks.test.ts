import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import { parseContentType } from '../../src/parsers/media-type.js';
import {
  assertHttpError,
  assertResourcesSettle,
  assertWithinBaseline,
  hostileSetup,
  listenerProbe,
  prototypeSnapshot,
  timed,
} from '../helpers/hostile.js';
import {
  type Middleware,
  type Outcome,
  rawHead,
  type SendOptions,
  send,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import {
  type AnyParser,
  exchange as answerOf,
  assertBody,
  assertError,
  withServer,
} from '../helpers/parsers.js';

const hostile = hostileSetup();

// One test per attack that has hit body-parser and its relatives (qs's deep nesting and array
// indices, parameter floods, decompression bombs, prototype keys, slow and lying clients,
// crafted Content-Types for backtracking regexes), each with the bound it must respect: a status and error type, and where the attack is about
// resources, a time budget. Memory bounds are measured in a fresh process in memory.test.ts.
// Set HOSTILE_IMPL to run these against another implementation (README, "Security"). The last
// group is httpware's alone: its exact messages and details for the same attacks, and the
// clients that leave or crawl, through the parsers' test server (test/helpers/parsers.ts).

/** One server running `middleware`, one request, its outcome and reply; then it is closed. */
async function exchange(
  middleware: Middleware | readonly Middleware[],
  request: SendOptions,
): Promise<{ outcome: Outcome; status: number; text: string; ms: number }> {
  const server = await startServer({
    middleware: Array.isArray(middleware) ? middleware : [middleware as Middleware],
  });
  try {
    const { value: reply, ms } = await timed(() => send(server, request));
    const outcome = await server.nextOutcome();
    assert.equal(outcome.nextCalls, 1, 'next is called exactly once');
    assert.deepEqual(hostile.uncaught.take(), [], 'no uncaught exception');
    return { outcome, status: reply.status, text: reply.text, ms };
  } finally {
    await server.close();
  }
}

/**
 * The time of the same exchange with a benign body (the median of three, for less noise): the
 * baseline an attack is measured against.
 */
async function baseline(middleware: Middleware, request: SendOptions): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push((await exchange(middleware, request)).ms);
  return times.sort((a, b) => a - b)[1] as number;
}

/** A form body of `length` bytes that is one plain parameter: linear work for any parser. */
const plainForm = (length: number) => `a=${'b'.repeat(Math.max(0, length - 2))}`;
/** A form body of `count` distinct parameters. */
const distinctKeys = (count: number, value = 'x') =>
  Array.from({ length: count }, (_, i) => `k${i}=${value}`).join('&');

/** A server that must keep answering after an attack: a plain JSON request still works. */
async function assertStillServing(server: TestServer): Promise<void> {
  const reply = await send(server, {
    headers: { 'content-type': 'application/json' },
    body: '{"still":"serving"}',
  });
  assert.equal(reply.status, 200, reply.text);
  const outcome = await server.nextOutcome();
  assert.deepEqual(outcome.body, { still: 'serving' });
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Runs after a pollution test (the check itself runs before): on a vulnerable implementation,
 * a polluted Object.prototype would otherwise fail every later test of the file too.
 */
function undoPollution(): void {
  const proto = Object.prototype as Record<string, unknown>;
  for (const name of ['polluted', 'admin']) delete proto[name];
  for (const name of ['hasOwnProperty', 'toString', 'valueOf']) {
    if (typeof proto[name] !== 'function') {
      Object.defineProperty(proto, name, {
        value: pristine[name],
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
  }
}
const pristine: Record<string, unknown> = {
  hasOwnProperty: Object.prototype.hasOwnProperty,
  toString: Object.prototype.toString,
  valueOf: Object.prototype.valueOf,
};
const json = { 'content-type': 'application/json' };

describe('deeply nested extended urlencoded keys', () => {
  test('a 5,000-deep a[b][b]... key answers 400 querystring.parse.rangeError, as fast as a flat body', async () => {
    const body = `a${'[b]'.repeat(5000)}=x`;
    const parser = hostile.subject.parsers.urlencoded({ extended: true });
    const base = await baseline(parser, { headers: form, body: plainForm(body.length) });
    const r = await exchange(parser, { headers: form, body });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 400,
      type: 'querystring.parse.rangeError',
    });
    assertWithinBaseline(r.ms, base, 'depth 5,000');
  });

  test('a 300,000-deep key under a 1mb limit answers 400, as fast as a flat body', async () => {
    const body = `a${'[b]'.repeat(300_000)}=x`;
    const parser = hostile.subject.parsers.urlencoded({ extended: true, limit: '1mb' });
    const base = await baseline(parser, { headers: form, body: plainForm(body.length) });
    const r = await exchange(parser, { headers: form, body });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 400,
      type: 'querystring.parse.rangeError',
    });
    assertWithinBaseline(r.ms, base, 'depth 300,000');
  });

  test('two keys sharing a 5,000-deep path with depth: Infinity answer 400 querystring.parse.rangeError', async () => {
    // Merging the second key into the first one's path recurses once per level: past the
    // stack, the 400 body-parser gives, not a 500 or a body.
    const path = `a${'[b]'.repeat(5000)}`;
    const parser = hostile.subject.parsers.urlencoded({ extended: true, depth: Infinity });
    const r = await exchange(parser, { headers: form, body: `${path}[c]=1&${path}[d]=2` });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 400,
      type: 'querystring.parse.rangeError',
    });
  });

  test('nesting within the depth still parses (32 levels by default)', async () => {
    const body = `a${'[b]'.repeat(32)}=x`;
    const r = await exchange(hostile.subject.parsers.urlencoded({ extended: true }), {
      headers: form,
      body,
    });
    assert.equal(r.outcome.error, undefined);
    let node = r.outcome.body as Record<string, unknown>;
    node = node.a as Record<string, unknown>;
    for (let i = 0; i < 31; i++) node = node.b as Record<string, unknown>;
    assert.equal(node.b, 'x');
  });
});

describe('a huge &&&& body', () => {
  for (const extended of [false, true]) {
    test(`10 MB of "&" (extended: ${extended}) answers 413 parameters.too.many, as fast as one 10 MB parameter`, async () => {
      const body = '&'.repeat(10 * 1024 * 1024);
      const parser = hostile.subject.parsers.urlencoded({ extended, limit: '20mb' });
      const base = await baseline(parser, { headers: form, body: plainForm(body.length) });
      const r = await exchange(parser, { headers: form, body });
      assertHttpError(r.outcome.error, hostile.documented, {
        status: 413,
        type: 'parameters.too.many',
      });
      assertWithinBaseline(r.ms, base, '10 MB of &');
    });
  }

  test('1,001 parameters with the default parameterLimit answer 413 parameters.too.many', async () => {
    const body = Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&');
    const r = await exchange(hostile.subject.parsers.urlencoded(), { headers: form, body });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 413,
      type: 'parameters.too.many',
    });
  });
});

describe('a value of spaces', () => {
  for (const extended of [false, true]) {
    test(`10 MB of "+" in one value (extended: ${extended}) is read in about the time of one plain 10 MB parameter`, async () => {
      const body = `a=${'+'.repeat(10 * 1024 * 1024)}`;
      const parser = hostile.subject.parsers.urlencoded({ extended, limit: '20mb' });
      const base = await baseline(parser, { headers: form, body: plainForm(body.length) });
      const r = await exchange(parser, { headers: form, body });
      assert.equal(r.outcome.error, undefined);
      assert.equal((r.outcome.body as { a: string }).a, ' '.repeat(10 * 1024 * 1024));
      // Replacing each `+` by a regular expression, or joining a string per `+`, took 7 times.
      assertWithinBaseline(r.ms, base, '10 MB of +', 4);
    });
  }
});

describe('sparse, enormous and repeated array indices', () => {
  test('a[999999999]=x gives a small object, not a billion-slot array, as fast as a[b]=x', async () => {
    const parser = hostile.subject.parsers.urlencoded({ extended: true });
    const base = await baseline(parser, { headers: form, body: 'a[b]=x' });
    const r = await exchange(parser, { headers: form, body: 'a[999999999]=x' });
    assert.equal(r.outcome.error, undefined);
    const body = r.outcome.body as { a: unknown };
    assert.ok(!Array.isArray(body.a), 'a is not an array');
    assert.deepEqual({ ...(body.a as object) }, { '999999999': 'x' });
    assertWithinBaseline(r.ms, base, 'a[999999999]');
  });

  test('a[0]=x&a[100000000]=y does not allocate a sparse array', async () => {
    const r = await exchange(hostile.subject.parsers.urlencoded({ extended: true }), {
      headers: form,
      body: 'a[0]=x&a[100000000]=y',
    });
    assert.equal(r.outcome.error, undefined);
    const a = (r.outcome.body as { a: unknown }).a;
    if (Array.isArray(a)) assert.ok(a.length <= 2, `array of length ${a.length}`);
    assert.ok(JSON.stringify(r.outcome.body).length < 100);
  });

  test('a[]= repeated 20,000 times (parameterLimit raised) stays bounded by the parameter count, as fast as 20,000 keys', async () => {
    const body = 'a[]=x&'.repeat(20_000).slice(0, -1);
    const parser = hostile.subject.parsers.urlencoded({
      extended: true,
      parameterLimit: 100_000,
      limit: '1mb',
    });
    const base = await baseline(parser, { headers: form, body: distinctKeys(20_000) });
    const r = await exchange(parser, { headers: form, body });
    assertWithinBaseline(r.ms, base, 'a[]= x 20,000');
    if (r.outcome.error !== undefined) {
      assertHttpError(r.outcome.error, hostile.documented, { status: 413 });
      return;
    }
    const a = (r.outcome.body as { a: unknown }).a;
    const size = Array.isArray(a) ? a.length : Object.keys(a as object).length;
    assert.ok(size <= 20_000, `${size} entries from 20,000 parameters`);
  });

  for (const extended of [false, true]) {
    test(`a key repeated 20,000 times in 40 kB (parameterLimit raised, extended: ${extended}) is answered as fast as 20,000 keys`, async () => {
      // "a&a&a&...": two bytes per parameter, each one more value for the same key. Within the
      // default 100kb limit an attacker fits 51,000 of them; 20,000 keep a failure short.
      const body = 'a&'.repeat(20_000).slice(0, -1);
      const parser = hostile.subject.parsers.urlencoded({ extended, parameterLimit: 1_000_000 });
      const base = await baseline(parser, { headers: form, body: distinctKeys(20_000, '') });
      const r = await exchange(parser, { headers: form, body });
      assertWithinBaseline(r.ms, base, 'a& x 20,000');
      if (r.outcome.error !== undefined)
        assertHttpError(r.outcome.error, hostile.documented, { status: 413 });
    });
  }

  test('a[]= repeated past the default parameterLimit answers 413 parameters.too.many', async () => {
    const body = 'a[]=x&'.repeat(1001).slice(0, -1);
    const r = await exchange(hostile.subject.parsers.urlencoded({ extended: true }), {
      headers: form,
      body,
    });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 413,
      type: 'parameters.too.many',
    });
  });
});

describe('prototype keys in urlencoded bodies', () => {
  const attacks = [
    '__proto__[polluted]=1',
    '__proto__.polluted=1',
    'constructor[prototype][polluted]=1',
    '[__proto__][polluted]=1',
    'a[__proto__][polluted]=1',
    'a[constructor][prototype][polluted]=1',
    '__proto__=x&a=1',
    'hasOwnProperty=x&toString=y&valueOf=z',
    'a[hasOwnProperty]=x',
  ];
  for (const extended of [false, true]) {
    for (const body of attacks) {
      test(`${body} (extended: ${extended}) pollutes no prototype and leaves the body usable`, async () => {
        const unchanged = prototypeSnapshot();
        let r: Awaited<ReturnType<typeof exchange>>;
        try {
          r = await exchange(hostile.subject.parsers.urlencoded({ extended }), {
            headers: form,
            body,
          });
          unchanged();
        } finally {
          undoPollution();
        }
        if (r.outcome.error !== undefined) {
          assertHttpError(r.outcome.error, hostile.documented, { status: 400 });
          return;
        }
        const parsed = r.outcome.body as Record<string, unknown>;
        const proto = Object.getPrototypeOf(parsed);
        assert.ok(proto === Object.prototype || proto === null, 'body prototype untouched');
        assert.equal((parsed as { polluted?: unknown }).polluted, undefined);
        // A body that shadows hasOwnProperty must not break the application's own checks.
        assert.equal(typeof Object.keys(parsed).length, 'number');
        assert.doesNotThrow(() => JSON.stringify(parsed));
      });
    }
  }
});

describe('JSON prototype poisoning', () => {
  const poisoned: Record<string, string> = {
    '__proto__ key': '{"__proto__":{"polluted":true}}',
    'escaped \\u005f_proto__ key': '{"\\u005f_proto__":{"polluted":true}}',
    'fully escaped __proto__ key': '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":true}}',
    'nested __proto__ key': '{"a":{"b":[{"__proto__":{"polluted":true}}]}}',
    '__proto__ key with blanks around': '{ "a":1 ,\n\t"__proto__" : {"polluted":true} }',
    'constructor.prototype': '{"constructor":{"prototype":{"polluted":true}}}',
    'escaped constructor.prototype': '{"\\u0063onstructor":{"\\u0070rototype":{"polluted":true}}}',
    'nested constructor.prototype': '[{"x":{"constructor":{"prototype":{"polluted":true}}}}]',
  };
  for (const [name, body] of Object.entries(poisoned)) {
    test(`a ${name} is refused with 400 by default`, async () => {
      const unchanged = prototypeSnapshot();
      let r: Awaited<ReturnType<typeof exchange>>;
      try {
        r = await exchange(hostile.subject.parsers.json(), { headers: json, body });
        unchanged();
      } finally {
        undoPollution();
      }
      assertHttpError(r.outcome.error, hostile.documented, { status: 400 });
      assert.equal(r.status, 400);
    });
  }

  test('a refused body merged by the application could not have polluted anything', async () => {
    // What the advisories describe: parse, then a naive deep merge into a plain object.
    const merge = (target: Record<string, unknown>, source: Record<string, unknown>) => {
      for (const key of Object.keys(source)) {
        const value = source[key];
        if (value && typeof value === 'object') {
          target[key] ??= {};
          merge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
        } else target[key] = value;
      }
    };
    const server = await startServer({
      middleware: [hostile.subject.parsers.json()],
      handler: (req, res) => {
        merge({}, (req as { body?: Record<string, unknown> }).body ?? {});
        res.end('merged');
      },
    });
    try {
      const reply = await send(server, {
        headers: json,
        body: '{"__proto__":{"polluted":"yes"}}',
      });
      assert.equal(({} as { polluted?: unknown }).polluted, undefined, 'Object.prototype polluted');
      assert.equal(reply.status, 400);
    } finally {
      // Undo a successful attack so it cannot leak into the other tests of this file.
      delete (Object.prototype as { polluted?: unknown }).polluted;
      await server.close();
    }
  });

  test('"__proto__" as a string value, not a key, is parsed', async () => {
    const r = await exchange(hostile.subject.parsers.json(), {
      headers: json,
      body: '{"note":"__proto__","list":["constructor","prototype"]}',
    });
    assert.equal(r.outcome.error, undefined);
    assert.deepEqual(r.outcome.body, {
      note: '__proto__',
      list: ['constructor', 'prototype'],
    });
  });
});

const zeros50mb = Buffer.alloc(50 * 1024 * 1024);
const bombs: Record<string, () => Buffer> = {
  gzip: () => zlib.gzipSync(zeros50mb, { level: 9 }),
  deflate: () => zlib.deflateSync(zeros50mb, { level: 9 }),
  br: () =>
    zlib.brotliCompressSync(zeros50mb, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    }),
};

describe('decompression bomb', () => {
  for (const [encoding, make] of Object.entries(bombs)) {
    test(`50 MB of zeros in ${encoding} (${encoding === 'br' ? '89 B' : '50 kB'}) answers 413 entity.too.large, having inflated no more than the limit and a chunk`, async () => {
      const r = await exchange(hostile.subject.parsers.json(), {
        headers: { ...json, 'content-encoding': encoding },
        body: make(),
      });
      assertHttpError(r.outcome.error, hostile.documented, {
        status: 413,
        type: 'entity.too.large',
      });
      // What was inflated before the reader stopped, not how long it took (a timing compared
      // with a baseline failed under load): the default 100 kB limit and at most one of zlib's
      // output chunks (16 KiB, 64 KiB for some codings) past it, never the 50 MB.
      const { received } = r.outcome.error as { received?: number };
      assert.ok(received !== undefined && received <= 100 * 1024 + 64 * 1024, `${received} bytes`);
    });
  }

  test('a gzip bomb for the raw parser with a 1mb limit answers 413 entity.too.large', async () => {
    const r = await exchange(hostile.subject.parsers.raw({ limit: '1mb' }), {
      headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' },
      body: bombs.gzip!(),
    });
    assertHttpError(r.outcome.error, hostile.documented, { status: 413, type: 'entity.too.large' });
  });
});

describe('corrupt compressed data with an unsupported charset and verify', () => {
  const valid = zlib.gzipSync(Buffer.from('{"a":"b"}'));
  const corrupt: Record<string, Buffer> = {
    garbage: Buffer.from('this is not compressed at all, not even close'),
    'truncated gzip': valid.subarray(0, valid.length - 6),
    'gzip with a broken header': Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0xff]), valid]),
  };
  const parserCases: Array<[string, () => Middleware, string]> = [
    ['json', () => hostile.subject.parsers.json({ verify: () => {} }), 'application/json'],
    ['text', () => hostile.subject.parsers.text({ verify: () => {} }), 'text/plain'],
    [
      'urlencoded',
      () => hostile.subject.parsers.urlencoded({ verify: () => {} }),
      'application/x-www-form-urlencoded',
    ],
    ['raw', () => hostile.subject.parsers.raw({ verify: () => {} }), 'application/octet-stream'],
  ];
  for (const [parser, make, type] of parserCases) {
    test(`${parser}: corrupt gzip, deflate and br with charset klingon or utf-7 never crash, answer a documented 4xx, and the server keeps serving`, async () => {
      const probe = listenerProbe();
      const server = await startServer({ middleware: [probe.before, make()] });
      try {
        for (const encoding of ['gzip', 'deflate', 'br']) {
          for (const [kind, body] of Object.entries(corrupt)) {
            for (const charset of ['klingon', 'utf-7']) {
              const reply = await send(server, {
                headers: {
                  'content-type': `${type}; charset=${charset}`,
                  'content-encoding': encoding,
                },
                body,
              });
              const outcome = await server.nextOutcome();
              assert.equal(outcome.nextCalls, 1, `${encoding} ${kind} ${charset}`);
              if (parser === 'raw') {
                // raw has no charset: the corrupt stream itself must be the error.
                assertHttpError(outcome.error, hostile.documented, { status: 400 });
              } else {
                assertHttpError(outcome.error, hostile.documented);
                assert.ok(reply.status === 400 || reply.status === 415, `${reply.status}`);
              }
            }
          }
        }
        // Let any late decoder error surface before looking.
        await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(hostile.uncaught.take(), [], 'no uncaught exception');
        assert.deepEqual(probe.leaks, [], 'no listener left on req or socket');
      } finally {
        await server.close();
      }
    });
  }

  test('a corrupt body with verify that throws answers a documented error without crashing', async () => {
    const r = await exchange(
      hostile.subject.parsers.json({
        verify: () => {
          throw new Error('refused');
        },
      }),
      {
        headers: {
          'content-type': 'application/json; charset=klingon',
          'content-encoding': 'gzip',
        },
        body: corrupt.garbage!,
      },
    );
    assertHttpError(r.outcome.error, hostile.documented);
  });
});

describe('lying Content-Length and broken clients', () => {
  test('a Content-Length shorter than the body: the declared bytes are parsed (400 entity.parse.failed) and the server keeps serving', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      const reply = await sendRaw(server, [
        rawHead('POST', '/', { 'content-type': 'application/json', 'content-length': 4 }),
        '{"a":"bcd"}',
      ]);
      const outcome = await server.nextOutcome();
      assert.equal(outcome.nextCalls, 1);
      assertHttpError(outcome.error, hostile.documented, {
        status: 400,
        type: 'entity.parse.failed',
      });
      assert.equal(reply.status, 400);
      await assertStillServing(server);
    } finally {
      await server.close();
    }
  });

  test('a Content-Length longer than the body, then the client leaves: 400 request.aborted, once, and the server keeps serving', async () => {
    const baseline = (await import('../helpers/hostile.js')).activeResources();
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      await sendRaw(
        server,
        [
          rawHead('POST', '/', { 'content-type': 'application/json', 'content-length': 1000 }),
          '{"a":',
        ],
        { abort: true, delayMs: 20 },
      );
      const outcome = await server.nextOutcome();
      assert.equal(outcome.nextCalls, 1);
      assertHttpError(outcome.error, hostile.documented, { status: 400, type: 'request.aborted' });
      await assertStillServing(server);
    } finally {
      await server.close();
    }
    await assertResourcesSettle(baseline);
  });

  test('a Content-Length over the limit is refused with 413 before the body is read', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      // The head alone announces 10 GB; nothing after it. The answer must not wait for it.
      const reply = await sendRaw(
        server,
        [rawHead('POST', '/', { 'content-type': 'application/json', 'content-length': 1e10 })],
        { timeoutMs: 1500 },
      );
      assert.equal(reply.status, 413, 'answered before the announced body arrived');
      const outcome = await server.nextOutcome(500);
      assertHttpError(outcome.error, hostile.documented, { status: 413, type: 'entity.too.large' });
    } finally {
      await server.close();
    }
  });
});

describe('a limit option that fails to parse', () => {
  const bad: unknown[] = ['1 megabyte', 'abc', '100kbx', '', '-1mb', Number.NaN, -1, {}, [], true];
  for (const limit of bad) {
    test(`limit ${JSON.stringify(limit) ?? String(limit)} throws a TypeError at creation or still enforces a limit`, async () => {
      let middleware: Middleware;
      try {
        middleware = hostile.subject.parsers.raw({ limit } as never);
      } catch (err) {
        assert.ok(err instanceof TypeError, String(err));
        assert.match((err as Error).message, /limit/);
        return;
      }
      // Accepted: then a body far over any sane default must still be refused.
      const r = await exchange(middleware, {
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(5 * 1024 * 1024, 0x61),
      });
      assertHttpError(r.outcome.error, hostile.documented, {
        status: 413,
        type: 'entity.too.large',
      });
    });
  }
});

describe('content-type confusion', () => {
  const cases: Array<[string, boolean]> = [
    ['application/json-x', false],
    ['application/jsonx', false],
    ['application/json+x', false],
    ['xapplication/json', false],
    ['text/json', false],
    ['application/x-json', false],
    ['application/vnd.api+json', false],
    ['application/json, text/plain', false],
    ['APPLICATION/JSON', true],
    ['Application/Json; Charset=UTF-8', true],
    ['application/json;charset="utf-8"', true],
    ['application/json; foo="a;b=c"; charset=utf-8', true],
    ['application/json ; charset=utf-8', true],
  ];
  for (const [type, parsed] of cases) {
    test(`content-type ${JSON.stringify(type)} is ${parsed ? 'parsed as JSON' : 'not parsed as JSON'}`, async () => {
      const r = await exchange(hostile.subject.parsers.json(), {
        headers: { 'content-type': type },
        body: '{"a":1}',
      });
      if (parsed) {
        assert.equal(r.outcome.error, undefined, String(r.outcome.error));
        assert.deepEqual(r.outcome.body, { a: 1 });
      } else if (r.outcome.error !== undefined) {
        // A malformed header may be refused, but never parsed as JSON.
        assertHttpError(r.outcome.error, hostile.documented, { status: 400 });
      } else {
        assert.equal(r.outcome.body, undefined);
      }
    });
  }

  const long = 15_000;
  const crafted: Record<string, string> = {
    'blanks after the semicolon': `application/json;${' '.repeat(long)}x`,
    'repeated semicolons': `application/json${';'.repeat(long)}`,
    'an unterminated quoted string of escapes': `application/json; a="${'\\"'.repeat(long / 2)}`,
    'a quoted string of backslashes': `application/json; a="${'\\'.repeat(long)}`,
    'repeated empty parameters': `application/json${'; a='.repeat(long / 4)}`,
    'a long subtype': `application/${'j'.repeat(long)}`,
    'a long type of slashes': `a${'/a'.repeat(long / 2)}`,
    'repeated plus suffixes': `application/a${'+a'.repeat(long / 2)}`,
    'alternating tokens and blanks': `application/json; charset=${'a '.repeat(long / 2)}`,
  };
  for (const parser of ['json', 'text', 'urlencoded', 'raw'] as const) {
    test(`${parser}: content-type headers of 15 kB crafted for regex backtracking are answered about as fast as an ordinary one (a backtracking regex takes far longer)`, async () => {
      const server = await startServer({
        middleware: [(hostile.subject.parsers[parser] as AnyParser)()],
      });
      try {
        for (const [name, type] of Object.entries(crafted)) {
          // The baseline: the same request with an ordinary Content-Type, just before.
          const plain = await timed(() =>
            send(server, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' }),
          );
          await server.nextOutcome();
          const { ms } = await timed(() =>
            send(server, { headers: { 'content-type': type }, body: '{"a":1}' }),
          );
          const outcome = await server.nextOutcome();
          assert.equal(outcome.nextCalls, 1, name);
          if (outcome.error !== undefined) assertHttpError(outcome.error, hostile.documented);
          assertWithinBaseline(ms, plain.ms, name);
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe('charset=utf-7', () => {
  test('JSON with charset=utf-7 answers 415 charset.unsupported and is never decoded', async () => {
    const r = await exchange(hostile.subject.parsers.json(), {
      headers: { 'content-type': 'application/json; charset=utf-7' },
      body: '{"x":"+ADw-script+AD4-alert(1)+ADw-/script+AD4-"}',
    });
    const err = assertHttpError(r.outcome.error, hostile.documented, {
      status: 415,
      type: 'charset.unsupported',
    });
    assert.match(err.message, /UTF-7/);
    assert.doesNotMatch(r.text, /<script>/);
  });

  test('urlencoded with charset=utf-7 answers 415 charset.unsupported', async () => {
    const r = await exchange(hostile.subject.parsers.urlencoded(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-7' },
      body: 'x=+ADw-script+AD4-',
    });
    assertHttpError(r.outcome.error, hostile.documented, {
      status: 415,
      type: 'charset.unsupported',
    });
  });

  for (const spelling of ['UTF-7', 'utf7', 'unicode-1-1-utf-7', 'csUnicode11UTF7', 'utf-7-imap']) {
    test(`JSON with charset=${spelling} is refused, not decoded as UTF-7`, async () => {
      const r = await exchange(hostile.subject.parsers.json(), {
        headers: { 'content-type': `application/json; charset=${spelling}` },
        body: '{"x":"+ADw-script+AD4-"}',
      });
      assertHttpError(r.outcome.error, hostile.documented, {
        status: 415,
        type: 'charset.unsupported',
      });
    });
  }
});

// httpware's own parsers from here on, whatever HOSTILE_IMPL says.
const FORM = 'application/x-www-form-urlencoded';
const extended = () => parsers.urlencoded({ extended: true });

describe("httpware's own answers to the same attacks", () => {
  test('deeply nested extended keys (a[b][b]... thousands deep) are refused', async () => {
    const body = `a${'[b]'.repeat(5000)}=x`;
    const result = await answerOf(extended(), FORM, body);
    assertError(result, 400, 'querystring.parse.rangeError', 'The input exceeded the depth');
  });

  test('a huge &&&&... body is refused before any parameter is allocated', async () => {
    const body = '&'.repeat(90 * 1024);
    const result = await answerOf(extended(), FORM, body);
    assertError(result, 413, 'parameters.too.many', 'too many parameters');
  });

  test('a sparse enormous array index (a[999999999]=x) does not allocate an array', async () => {
    const result = await answerOf(extended(), FORM, 'a[999999999]=x');
    assertBody(result, { a: { 999999999: 'x' } });
  });

  test('a[]= repeated past the array limit stays bounded by parameterLimit', async () => {
    const result = await answerOf(extended(), FORM, Array(1001).fill('a[]=x').join('&'));
    assertError(result, 413, 'parameters.too.many', 'too many parameters');
  });

  test('prototype keys in forms (__proto__, constructor[prototype], [__proto__][x]) do not pollute', async () => {
    const body =
      '__proto__[polluted]=1&constructor[prototype][polluted]=1&[__proto__][x]=1&hasOwnProperty=1';
    const result = await answerOf(extended(), FORM, body);
    assert.equal(result.reply.status, 200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    const parsed = result.outcome.body as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  });

  test('a __proto__ group inside a form key is dropped, never made a prototype', async () => {
    const result = await answerOf(extended(), FORM, 'a[__proto__][x]=1&a[y]=2&b[c][__proto__]=3');
    assertBody(result, { a: { y: '2' }, b: { c: {} } });
    const a = (result.outcome.body as { a: Record<string, unknown> }).a;
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.equal(a.x, undefined);
  });

  test('JSON __proto__ / constructor.prototype keys, escaped or not, are refused', async () => {
    for (const body of [
      '{"__proto__":{"x":1}}',
      '{"\\u005f_proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ]) {
      const result = await answerOf(parsers.json(), 'application/json', body);
      assertError(result, 400, 'entity.prototype.forbidden', /prototype property/);
    }
  });

  test('a decompression bomb stops at the limit', async () => {
    const bomb = zlib.brotliCompressSync(Buffer.alloc(20 * 1024 * 1024, 0x61), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
    });
    const result = await answerOf(parsers.text({ limit: '1mb' }), 'text/plain', bomb, {
      'content-encoding': 'br',
    });
    assertError(result, 413, 'entity.too.large', 'request entity too large', {
      limit: 1024 * 1024,
    });
  });

  test('corrupt compressed data with an unsupported charset and verify does not crash', async () => {
    const corrupt = Buffer.from('1f8b0800000000000003ffffffff', 'hex');
    const parser = parsers.text({ verify: () => {} });
    const result = await answerOf(parser, 'text/plain; charset=x-bogus', corrupt, {
      'content-encoding': 'gzip',
    });
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "X-BOGUS"');
    const again = await answerOf(parsers.json({ verify: () => {} }), 'application/json', corrupt, {
      'content-encoding': 'gzip',
    });
    assertError(again, 400, 'entity.inflate.failed', /./);
  });

  test('a Content-Length that lies short is caught as request.size.invalid', async () => {
    const json = parsers.json();
    const result = await answerOf(
      (req, res, next) => {
        req.headers['content-length'] = '3';
        json(req, res, next);
      },
      'application/json',
      '{"a":1}',
    );
    assertError(result, 400, 'request.size.invalid', 'request size did not match content length');
  });

  test('a client that aborts mid-body gets request.aborted and next is called once', async () => {
    await withServer(parsers.text(), async (server) => {
      const head = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 10 });
      await sendRaw(server, [head, 'abc'], { abort: true, delayMs: 20 });
      const outcome = await server.nextOutcome();
      assert.equal((outcome.error as { type?: string }).type, 'request.aborted');
      assert.equal(outcome.nextCalls, 1);
    });
  });

  test('a pipelined request whose client leaves mid-body gets request.aborted while the one before it is read', async () => {
    // Both requests come in one packet: node:http hands over the second before the first's
    // body has ended, so two readers watch one connection when the client leaves.
    await withServer(parsers.text(), async (server) => {
      const whole = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 3 });
      const cut = rawHead('POST', '/', { 'Content-Type': 'text/plain', 'Content-Length': 10 });
      await sendRaw(server, [`${whole}abc${cut}abc`], { abort: true });
      const first = await server.nextOutcome();
      const second = await server.nextOutcome();
      assert.equal(first.body, 'abc');
      assert.equal((second.error as { type?: string }).type, 'request.aborted');
      assert.equal(second.nextCalls, 1);
    });
  });

  test('a client that sends one byte at a time is still read correctly', async () => {
    await withServer(parsers.json(), async (server) => {
      const body = '{"slow":true}';
      const head = rawHead('POST', '/', {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
      });
      const reply = await sendRaw(server, [head, ...body.split('')], { delayMs: 5 });
      assert.equal(reply.status, 200);
      assert.deepEqual((await server.nextOutcome()).body, { slow: true });
    });
  });

  test('a limit that fails to parse throws at creation instead of disabling the limit', () => {
    assert.throws(() => parsers.json({ limit: 'ten megabytes' }), TypeError);
    assert.throws(() => parsers.json({ limit: Number.NaN }), TypeError);
  });

  test('content-type confusion: application/json-x, odd case and whitespace, quoted parameters', async () => {
    assertBody(await answerOf(parsers.json(), 'application/json-x', '{}'), undefined);
    assertBody(await answerOf(parsers.json(), 'application/jsonp', '{}'), undefined);
    assertBody(
      await answerOf(parsers.json(), ' APPLICATION/Json ;charset="utf-8";x="a;b"', '{"a":1}'),
      { a: 1 },
    );
    const quoted = await answerOf(
      parsers.json(),
      'application/json; x="charset=koi8-r"',
      '{"a":1}',
    );
    assertBody(quoted, { a: 1 });
  });

  test('a very long crafted Content-Type is parsed in linear time: a million characters in well under 5 s', () => {
    const crafted: Array<(n: number) => string> = [
      (n) => `application/json; ${'a='.repeat(n)}`,
      (n) => `application/${'x'.repeat(2 * n)}`,
      (n) => `application/json;${' '.repeat(n)}charset="${'\\"'.repeat(n / 2)}`,
      (n) => 'a/'.repeat(n),
    ];
    // Not a speed measurement but a bound no backtracking parse could meet: these take 20-250
    // ms here, where a parse quadratic in the header would take minutes (about 10^11 steps).
    // Comparing two timings instead (4 times the length, 4 times the time) failed whenever a
    // garbage collection fell inside the shorter one.
    for (const make of crafted) {
      const header = make(500_000);
      const started = performance.now();
      parseContentType(header);
      const ms = performance.now() - started;
      assert.ok(
        ms < 5000,
        `${header.slice(0, 30)}: ${ms.toFixed(0)} ms for ${header.length} characters`,
      );
    }
  });

  test('charset=utf-7 on JSON is refused (markup smuggling)', async () => {
    const result = await answerOf(
      parsers.json(),
      'application/json; charset=utf-7',
      '{"a":"+ADw-script+AD4-"}',
    );
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "UTF-7"');
  });
});
