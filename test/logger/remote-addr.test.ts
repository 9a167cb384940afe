// :remote-addr: req.ip when a framework sets it, else the socket's address, still known after
// the socket has gone (it is recorded when the request arrives).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`:remote-addr in ${framework}`, () => {
    it('is the client address', async () => {
      const server = await loggedServer((stream) => logger(':remote-addr', { stream }), {
        framework,
      });
      try {
        await send(server);
        const [line] = await server.capture.waitFor(1);
        assert.match(line ?? '', /^(::ffff:)?127\.0\.0\.1$/);
      } finally {
        await server.close();
      }
    });

    it('prefers req.ip when it is set', async () => {
      const server = await loggedServer((stream) => logger(':remote-addr', { stream }), {
        framework,
        after: [
          (req, _res, next) => {
            Object.defineProperty(req, 'ip', { value: '10.0.0.1', configurable: true });
            next();
          },
        ],
      });
      try {
        await send(server);
        assert.deepEqual(await server.capture.waitFor(1), ['10.0.0.1']);
      } finally {
        await server.close();
      }
    });

    it('keeps the address recorded on arrival once the socket is gone', async () => {
      // The handler destroys the connection before answering: by the time the line is made
      // the socket has no address any more.
      const server = await loggedServer((stream) => logger(':remote-addr :status', { stream }), {
        framework,
        handler: (req) => {
          req.socket.destroy();
        },
      });
      try {
        await send(server).catch(() => undefined);
        const [line] = await server.capture.waitFor(1);
        assert.match(line ?? '', /^(::ffff:)?127\.0\.0\.1 -$/);
      } finally {
        await server.close();
      }
    });
  });
}

// Express's req.ip is a getter on its prototype, never gone: node:http shows the case.
describe(':remote-addr in http, req.ip set by a middleware', () => {
  it('keeps the req.ip of arrival when req.ip is gone by the time the line is made', async () => {
    const server = await loggedServer((stream) => logger(':remote-addr', { stream }), {
      before: [
        (req, _res, next) => {
          Object.defineProperty(req, 'ip', { value: '10.0.0.1', configurable: true });
          next();
        },
      ],
      handler: (req, res) => {
        Reflect.deleteProperty(req, 'ip');
        res.end();
      },
    });
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['10.0.0.1']);
    } finally {
      await server.close();
    }
  });
});
