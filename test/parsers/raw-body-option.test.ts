import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers, type RequestWithBody } from '../../src/index.js';
import { send } from '../helpers/index.js';
import { assertBody, exchange, withServer } from '../helpers/parsers.js';

const secret = 'webhook-secret';
const sign = (body: Buffer | string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The documented example: check a webhook's HMAC over the exact bytes received. */
function checkSignature(req: IncomingMessage, res: ServerResponse): void {
  const { rawBody, headers } = req as RequestWithBody;
  const given = Buffer.from(String(headers['x-signature'] ?? ''));
  const expected = Buffer.from(rawBody === undefined ? '' : sign(rawBody));
  const valid = given.length === expected.length && timingSafeEqual(given, expected);
  res.statusCode = valid ? 200 : 401;
  res.end(valid ? 'ok' : 'bad signature');
}

describe('the rawBody option', () => {
  it('keeps the exact received bytes on req.rawBody beside the parsed body', async () => {
    let raw: unknown;
    const json = parsers.json({ rawBody: true });
    const probe = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
      json(req, res, (err) => {
        raw = (req as RequestWithBody).rawBody;
        next(err);
      });
    const body = '{ "a" : 1 }';
    assertBody(await exchange(probe, 'application/json', body), { a: 1 });
    assert.deepEqual(raw, Buffer.from(body));
  });

  it('does not set req.rawBody by default', async () => {
    let has = true;
    const json = parsers.json();
    await exchange(
      (req, res, next) =>
        json(req, res, () => {
          has = 'rawBody' in req;
          next();
        }),
      'application/json',
      '{}',
    );
    assert.equal(has, false);
  });

  it('keeps the inflated bytes of a compressed body', async () => {
    let raw: unknown;
    const text = parsers.text({ rawBody: true });
    await exchange(
      (req, res, next) =>
        text(req, res, () => {
          raw = (req as RequestWithBody).rawBody;
          next();
        }),
      'text/plain',
      zlib.gzipSync('hello'),
      { 'content-encoding': 'gzip' },
    );
    assert.deepEqual(raw, Buffer.from('hello'));
  });

  it('lets a webhook check an HMAC signature over the raw bytes', async () => {
    await withServer(
      parsers.json({ rawBody: true }),
      async (server) => {
        const body = '{"event":"paid","amount":10}';
        const good = await send(server, {
          headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
          body,
        });
        await server.nextOutcome();
        assert.equal(good.status, 200);
        // Same JSON value, different bytes: the signature must fail.
        const reformatted = '{"event": "paid", "amount": 10}';
        const bad = await send(server, {
          headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
          body: reformatted,
        });
        await server.nextOutcome();
        assert.equal(bad.status, 401);
      },
      { handler: checkSignature },
    );
  });
});
