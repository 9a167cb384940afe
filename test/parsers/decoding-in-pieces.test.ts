// A UTF-8 body that arrives in several pieces is decoded as it arrives (when nothing needs its
// bytes): the text must be exactly what decoding the whole body at once gives, wherever the
// pieces are cut, and `verify` / `rawBody` still see the whole body's bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { type Middleware, send } from '../helpers/index.js';
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

  it('refuses a body in pieces that grows past the limit', async () => {
    const pieces = cut(Buffer.from('x'.repeat(30)), 10, 20);
    const outcome = await sendInPieces(parsers.text({ limit: 25 }), 'text/plain', pieces);
    assert.equal((outcome.error as { type?: string }).type, 'entity.too.large');
  });
});
