import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { parsers } from '../../src/index.js';

// The options of `read` for a Web Request: a `reader(options)` resolves them once, and options
// given to `read` itself are resolved again whenever their values differ from the last ones.

const { json, urlencoded } = parsers;

function post(body: string, type = 'application/json'): Request {
  return new Request('http://127.0.0.1/', {
    method: 'POST',
    body,
    headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) },
  });
}

async function typeOf(reading: Promise<unknown>): Promise<unknown> {
  try {
    await reading;
  } catch (err) {
    return (err as { type?: unknown }).type ?? (err as Error).name;
  }
  return 'resolved';
}

test('a reader reads each Request it is given with the options it was made with', async () => {
  const read = json.reader({ limit: 20 });
  assert.deepEqual(await read(post('{"a":1}')), { a: 1 });
  assert.deepEqual(await read(post('{"b":2}')), { b: 2 });
  assert.equal(await typeOf(read(post(`{"a":"${'x'.repeat(30)}"}`))), 'entity.too.large');
  assert.equal(await typeOf(read(post('a=1', 'text/plain'))), 'media.type.unsupported');
});

test('a reader throws a bad option when it is made, not per request', () => {
  assert.throws(() => json.reader({ limit: 'lots' }), TypeError);
  assert.throws(() => urlencoded.reader({ parameterLimit: -1 }), TypeError);
});

test('a reader given a Node request rejects with a TypeError', async () => {
  const server = http.createServer(async (req, res) => {
    const reading = json.reader()(req as never);
    res.end(String(await typeOf(reading)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
    assert.equal(await response.text(), 'TypeError');
  } finally {
    server.close();
  }
});

test('read takes the new value of an options object changed between calls', async () => {
  const options = { limit: 100 as number | string };
  assert.deepEqual(await json.read(post('{"a":"0123456789"}'), options), { a: '0123456789' });
  options.limit = 10;
  assert.equal(await typeOf(json.read(post('{"a":"0123456789"}'), options)), 'entity.too.large');
  options.limit = 'lots';
  assert.equal(await typeOf(json.read(post('{}'), options)), 'TypeError');
});

test('read takes each of two inline options that alternate, and an option added later', async () => {
  const body = '{"a":"0123456789"}';
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(await json.read(post(body), { limit: 100 }), { a: '0123456789' });
    assert.equal(await typeOf(json.read(post(body), { limit: 10 })), 'entity.too.large');
  }
  assert.deepEqual(await json.read(post('[1]'), { limit: 100 }), [1]);
  assert.equal(
    await typeOf(json.read(post('[1]'), { limit: 100, strict: true, type: 'text/plain' })),
    'media.type.unsupported',
  );
  assert.equal(await typeOf(json.read(post('1'), { limit: 100 })), 'entity.parse.failed');
  assert.deepEqual(await json.read(post('1'), { limit: 100, strict: false }), 1);
});

test('read resolves options with an object value anew on every call (a type list changed in place)', async () => {
  const type = ['application/json'];
  const options = { type };
  assert.deepEqual(await json.read(post('{}'), options), {});
  type[0] = 'application/vnd.api+json';
  assert.equal(await typeOf(json.read(post('{}'), options)), 'media.type.unsupported');
});
