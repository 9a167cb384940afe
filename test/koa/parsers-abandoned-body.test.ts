import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import { rawHead, sendRaw } from '../helpers/client.js';
import { koaVersions, serveKoa } from '../helpers/koa.js';

// A body a parser gives up on (announced far past the limit) can only be stopped on HTTP/1.1 by
// closing the connection. Koa's error response removes every header set before it, which
// also stops Node from writing its own `Connection: close`: the Koa parser carries the header
// on the error (Koa sets `err.headers` after the removal), so the client is told, and the
// server closes the connection instead of reading the 50 MB as further requests.

for (const version of koaVersions) {
  describe(`${version}: a body given up on`, () => {
    for (const [name, parser] of [
      ['json', () => koa.json({ limit: 10 })],
      ['bodyParser', () => koa.bodyParser({ jsonLimit: 10 })],
    ] as const) {
      test(`${name}: is answered 413 with Connection: close, and the server closes the connection`, async () => {
        const server = await serveKoa(version, [parser()]);
        try {
          const head = rawHead('POST', '/', {
            'content-type': 'application/json',
            'content-length': 50 * 1024 * 1024,
          });
          const reply = await sendRaw(server, [head, '{"a":'], { timeoutMs: 5000 });
          assert.equal(reply.status, 413);
          assert.match(reply.raw, /\r\nConnection: close\r\n/i);
          assert.equal(reply.ended, 'closed');
        } finally {
          await server.close();
        }
      });
    }
  });
}
