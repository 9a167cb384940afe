// A body that arrives in several pieces is decoded as it arrives (when nothing needs its
// bytes): the text must be exactly what decoding the whole body at once gives, wherever the
// pieces are cut, and `verify` / `rawBody` still see the whole body's bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { parsers } from '../../src/index.js';
import { type Middleware, send, sendRaw } from '../helpers/index.js';
import { withServer } from '../helpers/parsers.js';

/** Sends `pieces` as separate writes, far enough apart to reach the parser as separate chunks. */
async function sendInPieces(middleware: Middleware, type: string, pieces: readonly Buffer[]) {
  return withServer(middleware, async (server) => {
    const length = pieces.reduce((n, p) => n + p.length, 0);
    await send(server, {
      method: 'POST',
      headers: { 'content-type': type, 'content-length': length },
      body: pieces,
      chunkDelayMs: 15,
    });
    return server.nextOutcome();
  });
}

/**
 * Sends `body` as HTTP/1.1 chunks of `size` bytes, written at once: node:http hands each over
 * as a chunk of its own, a small view of the socket's read buffer.
 */
async function sendInChunks(middleware: Middleware, type: string, body: Buffer, size: number) {
  return withServer(middleware, async (server) => {
    const parts = [
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
    ];
    for (let at = 0; at < body.length; at += size) {
      const chunk = body.subarray(at, at + size);
      parts.push(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`);
    }
    parts.push('0\r\n\r\n');
    await sendRaw(server, [Buffer.from(parts.join(''), 'latin1')]);
    return server.nextOutcome();
  });
}

/** The bytes of `text` cut at the given byte offsets. */
function cut(bytes: Buffer, ...at: number[]): Buffer[] {
  const edges = [0, ...at, bytes.length];
  return edges.slice(1).map((end, i) => bytes.subarray(edges[i], end));
}

describe('decoding a body that arrives in pieces', () => {
  it('joins a character split between two pieces (text)', async () => {
    const bytes = Buffer.from('naïve € 论 😀 end');
    // Cuts inside the 2-byte ï, the 3-byte €, and the 4-byte emoji.
    const pieces = cut(bytes, 3, 9, 17);
    const outcome = await sendInPieces(parsers.text(), 'text/plain', pieces);
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.body, 'naïve € 论 😀 end');
  });

  it('drops a byte-order mark split off in the first piece (json)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"论"}')]);
    const outcome = await sendInPieces(parsers.json(), 'application/json', cut(bytes, 2, 12));
    assert.equal(outcome.error, undefined);
    assert.deepEqual(outcome.body, { name: '论' });
  });

  it('replaces malformed UTF-8 exactly as decoding the whole body does', async () => {
    const bytes = Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98, 0xc3, 0x28, 0xff, 0x63]);
    const outcome = await sendInPieces(parsers.text(), 'text/plain', cut(bytes, 2, 5, 8, 10));
    assert.equal(outcome.body, bytes.toString('utf8'));
  });

  it('still hands verify and rawBody the whole body as bytes', async () => {
    const bytes = Buffer.from('{"price":"12 €"}');
    let verified: Buffer | undefined;
    const parser = parsers.json({
      rawBody: true,
      verify: (_req, _res, buf) => {
        verified = Buffer.from(buf);
      },
    });
    let raw: Buffer | undefined;
    const probe: Middleware = (req, res, next) =>
      parser(req, res, (err) => {
        raw = (req as { rawBody?: Buffer }).rawBody;
        next(err);
      });
    const outcome = await sendInPieces(probe, 'application/json', cut(bytes, 13, 14));
    assert.deepEqual(outcome.body, { price: '12 €' });
    assert.deepEqual(verified, bytes);
    assert.deepEqual(raw, bytes);
  });

  it('reads a utf-16 body without a byte-order mark sent a byte at a time in the byte order of its first 100 characters, as decoded whole', async () => {
    // Eight characters that look little-endian (U+4100 is 41 00), then 92 big-endian ASCII
    // ones: iconv-lite guesses big-endian from the first 100. Fed a byte at a time, it would
    // guess from the first 8 (little-endian).
    const bytes = Buffer.from([
      ...Array.from({ length: 8 }, () => [0x41, 0x00]).flat(),
      ...Array.from({ length: 92 }, () => [0x00, 0x61]).flat(),
    ]);
    const whole = iconv.decode(bytes, 'utf-16');
    assert.ok(whole.endsWith('a'.repeat(92)));
    const outcome = await sendInChunks(parsers.text(), 'text/plain; charset=utf-16', bytes, 1);
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.body, whole);
  });

  it('gathers a body of small chunks into one buffer no larger than the limit', async () => {
    const limit = 100 * 1024;
    const bytes = Buffer.alloc(limit - 10, 'a');
    const outcome = await sendInChunks(
      parsers.raw({ limit }),
      'application/octet-stream',
      bytes,
      1024,
    );
    const body = outcome.body as Buffer;
    assert.deepEqual(body, bytes);
    // Grown by doubling (16, 32, 64 KiB), the last step stops at the limit, not 128 KiB.
    assert.ok(body.buffer.byteLength <= limit, `a buffer of ${body.buffer.byteLength} bytes`);
  });

  it('gathers a Web body of small chunks into one buffer of its Content-Length', async () => {
    const bytes = Buffer.alloc(50_000, 'a');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1000) {
          controller.enqueue(new Uint8Array(bytes.subarray(at, at + 1000)));
        }
        controller.close();
      },
    });
    const request = new Request('http://127.0.0.1/', {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'application/octet-stream', 'content-length': '50000' },
    } as RequestInit);
    const body = await parsers.raw.read(request);
    assert.deepEqual(body, bytes);
    assert.equal(body.buffer.byteLength, bytes.length);
  });

  it('refuses a body in pieces that grows past the limit', async () => {
    const pieces = cut(Buffer.from('x'.repeat(30)), 10, 20);
    const outcome = await sendInPieces(parsers.text({ limit: 25 }), 'text/plain', pieces);
    assert.equal((outcome.error as { type?: string }).type, 'entity.too.large');
  });
});
