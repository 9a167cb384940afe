import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { send } from '../helpers/index.js';
import { assertBody, exchange, withServer } from '../helpers/parsers.js';

describe('the type option', () => {
  it('matches an extension name', async () => {
    assertBody(await exchange(parsers.json({ type: 'json' }), 'application/json', '{}'), {});
    assertBody(
      await exchange(parsers.raw({ type: 'bin' }), 'application/octet-stream', 'a'),
      Buffer.from('a'),
    );
    assertBody(await exchange(parsers.text({ type: 'txt' }), 'text/plain', 'a'), 'a');
  });

  it('matches */* against any media type', async () => {
    assertBody(await exchange(parsers.text({ type: '*/*' }), 'image/png', 'a'), 'a');
  });

  it('matches a type wildcard (application/*) and a subtype wildcard (*/json)', async () => {
    assertBody(
      await exchange(parsers.raw({ type: 'application/*' }), 'application/pdf', 'a'),
      Buffer.from('a'),
    );
    assertBody(await exchange(parsers.json({ type: '*/json' }), 'text/json', '{}'), {});
  });

  it('matches a +json suffix (application/*+json and +json)', async () => {
    for (const type of ['application/*+json', '+json']) {
      const result = await exchange(parsers.json({ type }), 'application/vnd.api+json', '{"a":1}');
      assertBody(result, { a: 1 });
    }
  });

  it('does not match a suffix pattern against a type without the suffix', async () => {
    const result = await exchange(
      parsers.json({ type: 'application/*+json' }),
      'application/json',
      '{}',
    );
    assertBody(result, undefined);
  });

  it('matches any entry of a list', async () => {
    const parser = parsers.json({ type: ['application/json', 'application/vnd.api+json'] });
    assertBody(await exchange(parser, 'application/vnd.api+json', '{}'), {});
  });

  it('skips a request without Content-Type', async () => {
    assertBody(await exchange(parsers.text({ type: '*/*' }), undefined, 'a'), undefined);
  });

  it('skips an invalid media type', async () => {
    assertBody(await exchange(parsers.text({ type: '*/*' }), 'text', 'a'), undefined);
    assertBody(
      await exchange(parsers.text({ type: '*/*' }), 'text/plain, text/html', 'a'),
      undefined,
    );
  });

  it('parses when a type function returns truthy', async () => {
    const parser = parsers.json({ type: (req) => req.headers['x-json'] === 'yes' });
    assertBody(await exchange(parser, 'text/plain', '{"a":1}', { 'x-json': 'yes' }), { a: 1 });
    assertBody(await exchange(parser, 'application/json', '{"a":1}'), undefined);
  });

  it('does not call the type function for a request without a body', async () => {
    const seen: IncomingMessage[] = [];
    const parser = parsers.json({
      type: (req) => {
        seen.push(req);
        return true;
      },
    });
    await withServer(parser, async (server) => {
      const reply = await send(server, {
        method: 'GET',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(reply.text, 'undefined');
      await server.nextOutcome();
    });
    assert.equal(seen.length, 0);
  });
});
