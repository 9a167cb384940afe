import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
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
