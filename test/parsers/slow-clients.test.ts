import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  activeResources,
  assertHttpError,
  assertResourcesSettle,
  hostileSetup,
  listenerProbe,
} from '../helpers/hostile.js';
import {
  frameworks,
  rawHead,
  send,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import type { AnyParser } from '../helpers/parsers.js';

const hostile = hostileSetup();

// Slow and broken clients: one that trickles its body must not hold up anyone else, and one
// that aborts, lies about its length or leaves after the headers gets the documented error
// (or a closed socket) while the server goes on serving.

const jsonHead = (length: number) =>
  rawHead('POST', '/', {
    'content-type': 'application/json',
    'content-length': length,
    connection: 'close',
  });

/** After an attack, an ordinary request (of the parser's default type) is still served. */
async function assertStillServing(server: TestServer, type = 'application/json'): Promise<void> {
  const reply = await send(server, { headers: { 'content-type': type }, body: '{"still":1}' });
  assert.equal(reply.status, 200, reply.text);
  const outcome = await server.nextOutcome(1000);
  assert.equal(outcome.nextCalls, 1);
  assert.equal(outcome.error, undefined);
}

describe('a client that sends one byte every 200 ms', () => {
  test('does not delay 20 other clients (all answered while the slow one is still sending), and is parsed in the end', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      const body = '{"slow":1}';
      const slow = sendRaw(server, [jsonHead(body.length), ...body.split('')], {
        delayMs: 200,
        timeoutMs: 5000,
      });
      // Let the slow client get its head and first bytes in.
      await new Promise((r) => setTimeout(r, 250));
      for (let i = 0; i < 20; i++) {
        const reply = await send(server, {
          headers: { 'content-type': 'application/json' },
          body: `{"fast":${i}}`,
        });
        assert.equal(reply.status, 200);
        // Outcomes arrive in completion order: the fast ones come before the slow one.
        assert.deepEqual((await server.nextOutcome(1000)).body, { fast: i });
      }
      const slowReply = await slow;
      assert.equal(slowReply.status, 200);
      const outcome = await server.nextOutcome(1000);
      assert.deepEqual(outcome.body, { slow: 1 });
      assert.equal(outcome.nextCalls, 1);
    } finally {
      await server.close();
    }
  });

  test('several slow clients at once do not delay a fast one', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.urlencoded()] });
    try {
      const body = 'a=1&b=2';
      const head = rawHead('POST', '/', {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': body.length,
        connection: 'close',
      });
      const slow = Array.from({ length: 10 }, () =>
        sendRaw(server, [head, ...body.split('')], { delayMs: 200, timeoutMs: 5000 }),
      );
      await new Promise((r) => setTimeout(r, 300));
      let slowDone = 0;
      for (const reply of slow) void reply.then(() => slowDone++);
      const reply = await send(server, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'fast=1',
      });
      assert.equal(reply.status, 200);
      // Each slow client takes 1.4 s to send its 7 bytes: the fast one came back before any.
      assert.equal(slowDone, 0, 'the fast client was answered before the slow ones');
      const replies = await Promise.all(slow);
      for (const r of replies) assert.equal(r.status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('a client that trickles its body past bodyTimeout', () => {
  for (const framework of frameworks) {
    test(`${framework}: 408 request.timeout once the time is up, next once, and the connection closed after the answer, without draining the rest`, async () => {
      const server = await startServer({
        framework,
        middleware: [hostile.subject.parsers.json({ bodyTimeout: 300 })],
      });
      try {
        const body = `{"slow":"${'x'.repeat(30)}"}`;
        const started = Date.now();
        const reply = await sendRaw(server, [jsonHead(body.length), ...body.split('')], {
          delayMs: 100,
          timeoutMs: 5000,
        });
        const elapsed = Date.now() - started;
        assert.equal(reply.status, 408);
        assert.match(reply.raw, /\r\nconnection: close\r\n/i);
        // Drained first, it would be answered a second later (the drain's time bound).
        assert.ok(elapsed < 800, `answered and closed after ${elapsed} ms`);
        const outcome = await server.nextOutcome(1000);
        assert.equal(outcome.nextCalls, 1);
        const err = assertHttpError(outcome.error, hostile.documented, {
          status: 408,
          type: 'request.timeout',
        });
        assert.equal((err as unknown as { timeout: number }).timeout, 300);
        await assertStillServing(server);
      } finally {
        await server.close();
      }
    });
  }
});

describe('a client that aborts mid-body', () => {
  for (const framework of frameworks) {
    test(`${framework}: 400 request.aborted reaches next once, nothing outlives the request, and the server keeps serving`, async () => {
      const baseline = activeResources();
      const probe = listenerProbe();
      const server = await startServer({
        framework,
        middleware: [probe.before, hostile.subject.parsers.json()],
      });
      try {
        await sendRaw(server, [jsonHead(100), '{"a":"half'], { abort: true, delayMs: 30 });
        const outcome = await server.nextOutcome(1000);
        assert.equal(outcome.nextCalls, 1);
        assertHttpError(outcome.error, hostile.documented, {
          status: 400,
          type: 'request.aborted',
        });
        const err = outcome.error as { received?: unknown; expected?: unknown };
        assert.equal(err.received, 10);
        assert.equal(err.expected, 100);
        await assertStillServing(server);
        assert.deepEqual(probe.leaks, []);
        assert.deepEqual(hostile.uncaught.take(), []);
      } finally {
        await server.close();
      }
      await assertResourcesSettle(baseline);
    });
  }

  test('an abort in the middle of a gzip body gives 400 request.aborted, not a decoder crash', async () => {
    const { gzipSync } = await import('node:zlib');
    const gz = gzipSync(Buffer.from(`{"a":"${'x'.repeat(5000)}"}`));
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      await sendRaw(
        server,
        [
          rawHead('POST', '/', {
            'content-type': 'application/json',
            'content-encoding': 'gzip',
            'content-length': gz.length,
          }),
          gz.subarray(0, 20),
        ],
        { abort: true, delayMs: 30 },
      );
      const outcome = await server.nextOutcome(1000);
      assert.equal(outcome.nextCalls, 1);
      assertHttpError(outcome.error, hostile.documented, { status: 400, type: 'request.aborted' });
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(hostile.uncaught.take(), []);
      await assertStillServing(server);
    } finally {
      await server.close();
    }
  });

  test('an abort while a chunked body is arriving gives 400 request.aborted', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.text()] });
    try {
      await sendRaw(
        server,
        [
          rawHead('POST', '/', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }),
          '5\r\nhello\r\n',
          '5\r\nwor',
        ],
        { abort: true, delayMs: 30 },
      );
      const outcome = await server.nextOutcome(1000);
      assertHttpError(outcome.error, hostile.documented, { status: 400, type: 'request.aborted' });
      await assertStillServing(server, 'text/plain');
    } finally {
      await server.close();
    }
  });
});

describe('a client that lies in Content-Length', () => {
  test('a length shorter than the body: only the declared bytes are the body, the rest is refused by HTTP', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.text()] });
    try {
      const reply = await sendRaw(server, [
        rawHead('POST', '/', { 'content-type': 'text/plain', 'content-length': 5 }),
        'hello, and then some bytes that belong to no request',
      ]);
      const outcome = await server.nextOutcome(1000);
      assert.equal(outcome.body, 'hello');
      assert.equal(outcome.nextCalls, 1);
      // The bytes after the declared length are a malformed next request: Node answers it 400
      // and closes, possibly before the first answer was written.
      assert.ok(reply.status === 200 || reply.status === 400, String(reply.status));
      await assertStillServing(server, 'text/plain');
    } finally {
      await server.close();
    }
  });

  test('a length longer than the body, then silence: the request waits; closing gives 400 request.aborted', async () => {
    const server = await startServer({ middleware: [hostile.subject.parsers.json()] });
    try {
      const reply = await sendRaw(server, [jsonHead(50), '{"a":1}'], { timeoutMs: 300 });
      assert.equal(reply.ended, 'timeout', 'no answer while the body is still owed');
      // sendRaw destroyed the socket when it stopped waiting.
      const outcome = await server.nextOutcome(1000);
      assertHttpError(outcome.error, hostile.documented, { status: 400, type: 'request.aborted' });
      assert.equal(outcome.nextCalls, 1);
      await assertStillServing(server);
    } finally {
      await server.close();
    }
  });

  test('a length over the limit is refused with 413 entity.too.large without waiting for the body', async () => {
    const server = await startServer({
      middleware: [hostile.subject.parsers.text({ limit: '1kb' })],
    });
    try {
      const reply = await sendRaw(
        server,
        [rawHead('POST', '/', { 'content-type': 'text/plain', 'content-length': 5000 }), 'abc'],
        { timeoutMs: 1500 },
      );
      assert.equal(reply.status, 413);
      const outcome = await server.nextOutcome(1000);
      assertHttpError(outcome.error, hostile.documented, { status: 413, type: 'entity.too.large' });
      await assertStillServing(server, 'text/plain');
    } finally {
      await server.close();
    }
  });
});

describe('a client that closes right after the headers', () => {
  for (const parser of ['json', 'raw', 'text', 'urlencoded'] as const) {
    test(`${parser}: 400 request.aborted, next once, and the server keeps serving`, async () => {
      const baseline = activeResources();
      const server = await startServer({
        middleware: [(hostile.subject.parsers[parser] as AnyParser)({ type: () => true })],
      });
      try {
        await sendRaw(server, [rawHead('POST', '/', { 'content-length': 10 })], {
          abort: true,
          delayMs: 20,
        });
        const outcome = await server.nextOutcome(1000);
        assert.equal(outcome.nextCalls, 1);
        assertHttpError(outcome.error, hostile.documented, {
          status: 400,
          type: 'request.aborted',
        });
        await assertStillServing(server, 'x/y');
      } finally {
        await server.close();
      }
      await assertResourcesSettle(baseline);
    });
  }
});
