import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parsers } from '../../src/index.js';
import { WEB_BODY_TIMEOUT_MS } from '../../src/parsers/web-body.js';
import { quietly } from '../helpers/warnings.js';

// The default bound on a Web read, on mocked timers. In a file of its own: the reads bounded by
// one timeout share one timer (src/parsers/deadlines.ts), and a read made earlier in the same
// process leaves that timer set on the real clock, where mocked time never reaches it.

test('a Web read is bounded to WEB_BODY_TIMEOUT_MS (60 s) by default', async () => {
  assert.equal(WEB_BODY_TIMEOUT_MS, 60_000);
  quietly(() => mock.timers.enable({ apis: ['setTimeout'] }));
  try {
    // A body that gives its first bytes and then nothing more.
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled) return;
          pulled = true;
          controller.enqueue(new TextEncoder().encode('{"a":'));
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request('http://127.0.0.1/', {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'application/json' },
    } as RequestInit);
    let settled: Record<string, unknown> | null = null;
    parsers.json.read(request).then(
      () => {
        settled = { type: 'resolved' };
      },
      (err) => {
        settled = err;
      },
    );
    await sleep(0);
    mock.timers.tick(WEB_BODY_TIMEOUT_MS - 1);
    await sleep(0);
    assert.equal(settled, null);
    mock.timers.tick(1);
    await sleep(0);
    assert.equal((settled as unknown as Record<string, unknown>)?.type, 'request.timeout');
    assert.equal((settled as unknown as Record<string, unknown>)?.timeout, WEB_BODY_TIMEOUT_MS);
  } finally {
    mock.timers.reset();
  }
});
