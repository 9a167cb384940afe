import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS } from '../../src/parsers/pipeline.js';
import { loadSubject } from '../helpers/hostile.js';

// A Web Request's body may bring more than its Content-Length announced (node:http never hands
// that over; a Request the application makes, or a runtime that does not check, may). A small
// encoded body is collected whole before it is inflated and counted: without a bound on what
// arrives, one announced at 100 bytes could pile up gigabytes first.

const { parsers } = await loadSubject();

async function typeOf(reading: Promise<unknown>): Promise<unknown> {
  try {
    await reading;
  } catch (err) {
    return (err as { type?: unknown }).type;
  }
  return 'resolved';
}

test('a Web body longer than its Content-Length is refused at the first byte past it', async () => {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024);
  // Gzip data announced at 100 bytes that brings 16 MB: pulled only as it is read.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled++;
        if (pulled > 256) controller.close();
        else controller.enqueue(pulled === 1 ? zlib.gzipSync('{"a":1}').subarray(0, 10) : chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://127.0.0.1/', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': '100',
    },
  } as RequestInit);
  let pulledAtError = -1;
  const reading = parsers.json.read(request).finally(() => {
    pulledAtError = pulled;
  });
  assert.equal(await typeOf(reading), 'request.size.invalid');
  // The first chunk past the announced length stops the parse; the error comes once the drain
  // bound (1 MiB: 16 chunks) is read off, give or take the reads in flight. The rest flows off
  // for a second more, then the body is cancelled (test/web/plain-request).
  assert.ok(pulledAtError <= 24, `${pulledAtError} chunks of 64 KB were read`);
});

/**
 * An endless body: a chunk of `size` bytes each time it is read, at most one every `everyMs`;
 * it counts what was pulled and whether it was cancelled.
 */
function endless(size: number, everyMs = 0) {
  const state = { pulled: 0, bytes: 0, cancelled: false };
  const chunk = new Uint8Array(size).fill(0x20);
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (everyMs > 0) await sleep(everyMs);
        state.pulled++;
        state.bytes += size;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function lyingRequest(body: ReadableStream<Uint8Array>): Request {
  return new Request('http://127.0.0.1/', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-type': 'application/json', 'content-length': '10' },
  } as RequestInit);
}

test('the drain after an error reads no more than its byte bound from an endless body, then cancels it', async () => {
  const { stream, state } = endless(64 * 1024);
  const started = Date.now();
  const type = await typeOf(parsers.json.read(lyingRequest(stream), { limit: '1kb' }));
  assert.equal(type, 'request.size.invalid');
  assert.ok(Date.now() - started < DRAIN_LIMIT_MS, 'the error came once the bound was read');
  const atError = state.bytes;
  // The chunk that was one too many, the bound, and the chunk that passed it.
  assert.ok(atError <= DRAIN_LIMIT_BYTES + 2 * 64 * 1024, `${atError} bytes pulled`);
  await sleep(DRAIN_LIMIT_MS / 2);
  assert.equal(state.bytes, atError, 'nothing more is pulled once the bound is spent');
  await sleep(DRAIN_LIMIT_MS / 2 + 200);
  assert.equal(state.cancelled, true);
});

test('the drain after an error reads for no longer than its time bound from a slow endless body', async () => {
  const { stream, state } = endless(1024, 20);
  const started = Date.now();
  const type = await typeOf(parsers.json.read(lyingRequest(stream), { limit: '1kb' }));
  const elapsed = Date.now() - started;
  assert.equal(type, 'request.size.invalid');
  assert.ok(elapsed >= DRAIN_LIMIT_MS - 50 && elapsed < DRAIN_LIMIT_MS + 500, `${elapsed} ms`);
  // A read in flight when the time ran out may still land; none is asked for after it.
  const atError = state.pulled;
  await sleep(DRAIN_LIMIT_MS / 2);
  assert.ok(state.pulled <= atError + 1, `${state.pulled - atError} chunks pulled after the bound`);
  await sleep(DRAIN_LIMIT_MS / 2 + 200);
  assert.equal(state.cancelled, true);
});
