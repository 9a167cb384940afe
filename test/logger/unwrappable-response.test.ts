// A response whose writeHead cannot be wrapped (an own read-only writeHead, or a response made
// non-extensible) is still logged; only what the wrapper would have seen (the time of
// the head) is unknown, written "-". The logger never throws into the application for it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { type Middleware, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const readOnlyWriteHead: Middleware = (_req, res, next) => {
  Object.defineProperty(res, 'writeHead', {
    value: res.writeHead,
    writable: false,
    configurable: false,
  });
  next();
};

// node:http adds statusCode and statusMessage to a response when it writes the head: they are
// set first, so that only the logger's own addition is refused.
const nonExtensible: Middleware = (_req, res, next) => {
  res.statusCode = 200;
  res.statusMessage = 'OK';
  Object.preventExtensions(res);
  next();
};

describe('a response the logger cannot wrap', () => {
  for (const [name, prepare] of [
    ['with a read-only own writeHead', readOnlyWriteHead],
    ['made non-extensible', nonExtensible],
  ] as const) {
    it(`${name} is logged, its response time "-"`, async () => {
      const server = await loggedServer(
        (stream) => logger(':status :res[content-length] :response-time', { stream }),
        { before: [prepare] },
      );
      try {
        const reply = await send(server);
        assert.equal(reply.status, 200);
        assert.deepEqual(await server.capture.waitFor(1), ['200 2 -']);
      } finally {
        await server.close();
      }
    });
  }
});
