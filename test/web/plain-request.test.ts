import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import { hasZstd } from '../../src/parsers/inflate.js';
import { DRAIN_LIMIT_MS } from '../../src/parsers/read-body.js';
import { WEB_BODY_TIMEOUT_MS } from '../../src/parsers/web-body.js';
import { quietly } from '../helpers/warnings.js';

// `read(request)` on Web Requests made with `new Request(...)`, where no server adds anything:
// what a Web Request changes (no body, a used or locked body, a signal), and the pipeline's
// behaviour through the Web door (codings, charsets, limits, verify, schema).

const { json, raw, text, urlencoded } = parsers;

function post(
  body: RequestInit['body'],
  headers: Record<string, string> = {},
  init: RequestInit = {},
) {
  const streamed = body instanceof ReadableStream;
  return new Request('http://127.0.0.1/', {
    method: 'POST',
    body,
    headers,
    ...init,
    ...(streamed ? { duplex: 'half' } : {}),
  } as RequestInit);
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** A body that gives its chunks only when read, and tells how many were pulled and if cancelled. */
function counted(chunks: readonly Uint8Array[], then: 'close' | 'hang' = 'close') {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[state.pulled];
        if (chunk !== undefined) {
          state.pulled++;
          controller.enqueue(chunk);
        } else if (then === 'close') controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (err) {
    return err as Record<string, unknown>;
  }
  throw new Error('the read resolved');
}

describe('read(request) on a Web Request', () => {
  test('a Request without a body (body null) reads as an empty body', async () => {
    assert.deepEqual(await json.read(post(null)), {});
    assert.equal(await text.read(post(null)), '');
  });

  test('raw gives a Buffer', async () => {
    const body = await raw.read(
      post(new Uint8Array([1, 2, 3]), { 'content-type': 'application/octet-stream' }),
    );
    assert.ok(Buffer.isBuffer(body));
    assert.deepEqual([...body], [1, 2, 3]);
  });

  test('a body already used is 500 stream.not.readable', async () => {
    const request = post('{}', JSON_TYPE);
    await request.text();
    const err = await rejection(json.read(request));
    assert.equal(err.type, 'stream.not.readable');
    assert.equal(err.status, 500);
  });

  test('a body locked by another reader is 500 stream.not.readable', async () => {
    const request = post('{}', JSON_TYPE);
    request.body?.getReader();
    assert.equal((await rejection(json.read(request))).type, 'stream.not.readable');
  });

  test('a second read of the same Request is stream.not.readable', async () => {
    const request = post('{"a":1}', JSON_TYPE);
    const first = json.read(request);
    assert.equal((await rejection(json.read(request))).type, 'stream.not.readable');
    assert.deepEqual(await first, { a: 1 });
  });

  test('a Request whose signal already aborted is 400 request.aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(json.read(post('{}', JSON_TYPE, { signal: controller.signal })));
    assert.equal(err.type, 'request.aborted');
    assert.equal(err.status, 400);
  });

  test('a signal aborted mid-body is 400 request.aborted, with what was received', async () => {
    const controller = new AbortController();
    const { stream } = counted([new TextEncoder().encode('{"a":')], 'hang');
    // A `new Request(url, { signal })` follows the given signal only through a weak reference
    // (undici): with nothing else holding that Request (no server here), a garbage collection
    // before the abort collects the Request with its pending read, and the abort reaches
    // nothing; the test then hangs (seen in CI). A runtime aborts its Request's own signal:
    // so does this Request-shaped object (read takes anything with headers.get, body, bodyUsed).
    const request = { headers: new Headers(JSON_TYPE), body: stream, bodyUsed: false };
    const reading = json.read({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const err = await rejection(reading);
    assert.equal(err.type, 'request.aborted');
    assert.equal(err.received, 5);
  });

  test('a body stream that errors mid-body is 400 request.aborted', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        setTimeout(() => controller.error(new Error('connection reset')), 10);
      },
    });
    assert.equal((await rejection(json.read(post(stream, JSON_TYPE)))).type, 'request.aborted');
  });

  test('a body shorter than its Content-Length is 400 request.size.invalid', async () => {
    const err = await rejection(
      json.read(post('{"a":1}', { ...JSON_TYPE, 'content-length': '20' })),
    );
    assert.equal(err.type, 'request.size.invalid');
    assert.equal(err.expected, 20);
    assert.equal(err.received, 7);
  });

  test('a non-numeric Content-Length is ignored, as on Node: the body is counted as it comes', async () => {
    assert.deepEqual(await json.read(post('{"a":1}', { ...JSON_TYPE, 'content-length': 'abc' })), {
      a: 1,
    });
    const err = await rejection(
      json.read(post('{"a":"xxxxxxxx"}', { ...JSON_TYPE, 'content-length': 'abc' }), { limit: 8 }),
    );
    assert.equal(err.type, 'entity.too.large');
  });

  test('a Content-Length over the limit is refused on it, and the body cancelled only once the answer had time to go', async () => {
    const { stream, state } = counted([new Uint8Array(1024)], 'hang');
    const request = post(stream, { ...JSON_TYPE, 'content-length': String(8 * 1024 * 1024) });
    const err = await rejection(json.read(request, { limit: '1mb' }));
    assert.equal(err.type, 'entity.too.large');
    assert.equal(err.length, 8 * 1024 * 1024);
    // Cancelled at once, a body from Node's Readable.toWeb would take the socket, and the 413
    // with it (see web-body.ts).
    await sleep(20);
    assert.equal(state.cancelled, false);
    await sleep(DRAIN_LIMIT_MS);
    assert.equal(state.cancelled, true);
  });

  test('a chunked body is counted on every chunk, and reading stops at the limit', async () => {
    const chunk = new Uint8Array(1024).fill(0x20);
    const { stream, state } = counted(
      Array.from({ length: 4096 }, () => chunk),
      'hang',
    );
    const err = await rejection(json.read(post(stream, JSON_TYPE), { limit: '10kb' }));
    assert.equal(err.type, 'entity.too.large');
    assert.equal(err.received, 11 * 1024);
    // The error comes once the drain bound (1 MB) is read off; the rest flows off a second more,
    // then the body is cancelled.
    assert.equal(state.cancelled, false);
    await sleep(DRAIN_LIMIT_MS + 100);
    assert.equal(state.cancelled, true);
  });

  for (const [coding, compress] of [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const) {
    test(`Content-Encoding ${coding} is inflated, and counted after inflation`, async () => {
      const headers = { ...JSON_TYPE, 'content-encoding': coding };
      assert.deepEqual(await json.read(post(compress('{"a":1}'), headers)), { a: 1 });
      const big = compress(JSON.stringify({ pad: ' '.repeat(200_000) }));
      const err = await rejection(json.read(post(big, headers), { limit: '100kb' }));
      assert.equal(err.type, 'entity.too.large');
    });
  }

  test('Content-Encoding zstd is inflated where zlib has it, and unsupported (415) where not', async () => {
    const zstd = (zlib as unknown as { zstdCompressSync?: (b: string) => Buffer }).zstdCompressSync;
    const body = zstd ? zstd('{"a":1}') : new Uint8Array([1, 2, 3]);
    const reading = json.read(post(body, { ...JSON_TYPE, 'content-encoding': 'zstd' }));
    if (hasZstd) assert.deepEqual(await reading, { a: 1 });
    else assert.equal((await rejection(reading)).type, 'encoding.unsupported');
  });

  test('the charset of the Content-Type decodes the body', async () => {
    const latin1 = Buffer.from('caf\xe9', 'latin1');
    assert.equal(
      await text.read(post(latin1, { 'content-type': 'text/plain; charset=iso-8859-1' })),
      'café',
    );
  });

  test('verify gets the Request, undefined, the bytes and the charset', async () => {
    const request = post('{"a":1}', JSON_TYPE);
    const seen: unknown[] = [];
    await json.read(request, {
      verify: (req, res, buf, encoding) => {
        seen.push(req, res, buf.toString(), encoding);
      },
    });
    assert.deepEqual(seen, [request, undefined, '{"a":1}', 'utf-8']);
  });

  test('a verify that throws is 403 entity.verify.failed', async () => {
    const err = await rejection(
      json.read(post('{}', JSON_TYPE), {
        verify: () => {
          throw new Error('bad signature');
        },
      }),
    );
    assert.equal(err.type, 'entity.verify.failed');
    assert.equal(err.status, 403);
  });

  test('a type function is given the Request', async () => {
    let given: unknown;
    const request = post('hello', { 'content-type': 'application/x-custom' });
    const body = await text.read(request, {
      type: (req) => {
        given = req;
        return true;
      },
    });
    assert.equal(body, 'hello');
    assert.equal(given, request);
  });

  test('what a type function throws rejects the read', async () => {
    const refusal = new Error('no such tenant');
    const reading = text.read(post('hello', { 'content-type': 'text/plain' }), {
      type: () => {
        throw refusal;
      },
    });
    assert.equal(await rejection(reading), refusal);
  });

  test('reads without options in a row follow each Content-Type, matching or not', async () => {
    assert.deepEqual(await json.read(post('{"a":1}', JSON_TYPE)), { a: 1 });
    const err = await rejection(json.read(post('{"a":1}', { 'content-type': 'text/plain' })));
    assert.equal(err.type, 'media.type.unsupported');
    assert.equal((await rejection(json.read(post('{"a":1}')))).type, 'media.type.unsupported');
    const latin1 = { 'content-type': 'text/plain; charset=iso-8859-1' };
    assert.equal(await text.read(post(new Uint8Array([0xe9]), latin1)), 'é');
    assert.deepEqual(await json.read(post('{"a":2}', JSON_TYPE)), { a: 2 });
  });

  test('options given to one read do not carry over to a read without them', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(200) });
    const err = await rejection(json.read(post(big, JSON_TYPE), { limit: 100 }));
    assert.equal(err.type, 'entity.too.large');
    const typed = await rejection(json.read(post('{}', JSON_TYPE), { type: 'text/plain' }));
    assert.equal(typed.type, 'media.type.unsupported');
    assert.deepEqual(await json.read(post(big, JSON_TYPE)), JSON.parse(big));
    assert.deepEqual(await json.read(post('{}', JSON_TYPE)), {});
  });

  test('urlencoded reads a form, and refuses a form past its parameter limit', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    assert.deepEqual(await urlencoded.read(post('a=1&b=2', form)), { a: '1', b: '2' });
    const err = await rejection(urlencoded.read(post('a=1&b=2&c=3', form), { parameterLimit: 2 }));
    assert.equal(err.type, 'parameters.too.many');
  });

  test('a schema gives its output, and its issues as 422 with their paths', async () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) =>
          typeof (value as { id?: unknown }).id === 'number'
            ? { value: { id: (value as { id: number }).id } }
            : { issues: [{ message: 'not a number', path: ['id'] }] },
      },
    };
    assert.deepEqual(await json.read(post('{"id":7,"x":1}', JSON_TYPE), { schema }), { id: 7 });
    const err = await rejection(json.read(post('{"id":"7"}', JSON_TYPE), { schema }));
    assert.equal(err.status, 422);
    assert.deepEqual(err.issues, [{ path: ['id'], message: 'invalid value' }]);
  });
});

/** A body that gives a byte every `everyMs` for ever, and tells whether it was cancelled. */
function trickled(everyMs: number) {
  const state = { cancelled: false };
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":"'));
      timer = setInterval(() => controller.enqueue(new Uint8Array([0x78])), everyMs);
    },
    cancel() {
      state.cancelled = true;
      clearInterval(timer);
    },
  });
  return { stream, state, stop: () => clearInterval(timer) };
}

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('read(request): the time a body may take (bodyTimeout)', () => {
  test('a body trickled past bodyTimeout is 408 request.timeout at once, and its stream cancelled a second later', async () => {
    const { stream, state, stop } = trickled(20);
    try {
      const started = Date.now();
      const err = await rejection(json.read(post(stream, JSON_TYPE), { bodyTimeout: 300 }));
      const elapsed = Date.now() - started;
      assert.equal(err.type, 'request.timeout');
      assert.equal(err.status, 408);
      assert.equal(err.timeout, 300);
      assert.ok((err.received as number) > 6, `received ${err.received}`);
      // Not drained first: the rest would come as slowly.
      assert.ok(elapsed >= 290 && elapsed < 600, `answered after ${elapsed} ms`);
      assert.equal(state.cancelled, false);
      await sleep(DRAIN_LIMIT_MS + 100);
      assert.equal(state.cancelled, true);
    } finally {
      stop();
    }
  });

  test('reads with one bodyTimeout each time out at their own deadline, and one that ended does not', async () => {
    // The reads bounded by one timeout share one timer (src/parsers/deadlines.ts).
    const started = Date.now();
    const outcomes: Array<Promise<[string, number]>> = [];
    const whole = counted([new TextEncoder().encode('{"a":1}')]);
    const hanging = () => counted([new TextEncoder().encode('{"a":')], 'hang').stream;
    for (const delay of [0, 100, 200]) {
      await sleep(delay === 0 ? 0 : 100);
      const read = json.read(post(hanging(), JSON_TYPE), { bodyTimeout: 300 });
      outcomes.push(
        read.then(
          () => ['resolved', 0],
          (err) => [err.type, Date.now() - started],
        ),
      );
      if (delay === 100) {
        assert.deepEqual(await json.read(post(whole.stream, JSON_TYPE), { bodyTimeout: 300 }), {
          a: 1,
        });
      }
    }
    const settled = await Promise.all(outcomes);
    assert.deepEqual(
      settled.map(([type]) => type),
      ['request.timeout', 'request.timeout', 'request.timeout'],
    );
    settled.forEach(([, at], i) => {
      const due = 300 + 100 * i;
      assert.ok(
        at >= due - 10 && at < due + 150,
        `read ${i} timed out after ${at} ms, due at ${due}`,
      );
    });
  });

  test('bodyTimeout 0 sets no bound: the read waits for the body (or its client leaving)', async () => {
    quietly(() => mock.timers.enable({ apis: ['setTimeout'] }));
    const controller = new AbortController();
    try {
      const { stream } = counted([new TextEncoder().encode('{"a":')], 'hang');
      const request = { headers: new Headers(JSON_TYPE), body: stream, bodyUsed: false };
      let settled: unknown = null;
      json
        .read({ ...request, signal: controller.signal }, { bodyTimeout: 0 })
        .then(undefined, (err) => {
          settled = err;
        });
      await sleep(0);
      mock.timers.tick(10 * WEB_BODY_TIMEOUT_MS);
      await sleep(0);
      assert.equal(settled, null);
    } finally {
      mock.timers.reset();
      controller.abort();
    }
  });

  test('a body that arrives in time leaves no timer behind', async () => {
    // A bound no other test uses: its shared timer is set by this read (deadlines.ts).
    const before = timers();
    assert.deepEqual(await json.read(post('{"a":1}', JSON_TYPE), { bodyTimeout: 59_999 }), {
      a: 1,
    });
    assert.equal(timers(), before);
  });

  test('a bodyTimeout that is not 0 or a delay setTimeout can wait for is refused', async () => {
    for (const bodyTimeout of [-5, Number.NaN, 2 ** 31, '1s', null]) {
      const err = await rejection(json.read(post('{}', JSON_TYPE), { bodyTimeout } as never));
      assert.ok(err instanceof TypeError);
      assert.equal(
        err.message,
        'option bodyTimeout must be a number of milliseconds from 0 (no bound) to 2147483647',
      );
      assert.throws(() => json({ bodyTimeout } as never), TypeError);
    }
  });
});
