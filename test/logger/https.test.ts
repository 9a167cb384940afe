// The logger behind TLS: the same tokens, read from a TLS socket.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`HTTPS in ${framework}`, () => {
    it('logs address, user, request and status over TLS', async () => {
      const server = await loggedServer(
        (stream) =>
          logger(':remote-addr :remote-user :method :url HTTP/:http-version :status', {
            stream,
          }),
        { framework, https: true },
      );
      try {
        assert.match(server.origin, /^https:/);
        await send(server, { path: '/secure?x=1', auth: 'tls-user:pw' });
        const [line] = await server.capture.waitFor(1);
        assert.match(
          line ?? '',
          /^(::ffff:)?127\.0\.0\.1 tls-user GET \/secure\?x=1 HTTP\/1\.1 200$/,
        );
      } finally {
        await server.close();
      }
    });
  });
}
