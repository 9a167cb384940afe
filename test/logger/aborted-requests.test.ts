// A client that goes away before the response: logged once, with :status - unless the
// application answered anyway (what it answered is then named, though nobody received it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { logger } from '../../src/logger/index.js';
import { parsers } from '../../src/parsers/index.js';
import { abandon, frameworks, rawHead, send, sendRaw } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

for (const framework of frameworks) {
  describe(`aborted requests in ${framework}`, () => {
    it('are logged exactly once, with :status, :res and times as -', async () => {
      let abandoned = false;
      const server = await loggedServer(
        (stream) =>
          logger(':method :url :status :res[content-length] :response-time :total-time', {
            stream,
          }),
        {
          framework,
          // Never answers: the client gives up.
          handler: () => {
            abandoned = true;
          },
        },
      );
      try {
        await sendRaw(server, [rawHead('POST', '/upload', { 'content-length': 10 }), '12345'], {
          abort: true,
          delayMs: 20,
        });
        assert.deepEqual(await server.capture.waitFor(1), ['POST /upload - - - -']);
        assert.ok(abandoned);
        await delay(50);
        assert.equal(server.capture.lines.length, 1, 'logged once');
      } finally {
        await server.close();
      }
    });

    it('a client gone mid-body is logged once, with the status the application answered', async () => {
      // morgan writes this line on the socket's 'close', before the body reader has failed and
      // the application has answered: it logs "-" where httpware logs the 400.
      const server = await loggedServer((stream) => logger(':method :url :status', { stream }), {
        framework,
        after: [parsers.json()],
      });
      try {
        await abandon(server, { path: '/upload', when: 'body' });
        const outcome = await server.nextOutcome();
        assert.equal((outcome.error as { type?: unknown }).type, 'request.aborted');
        assert.deepEqual(await server.capture.waitFor(1), ['POST /upload 400']);
        await delay(50);
        assert.equal(server.capture.lines.length, 1, 'logged once');
      } finally {
        await server.close();
      }
    });

    it('a response closed after its head keeps its status and is logged once', async () => {
      const server = await loggedServer((stream) => logger(':url :status', { stream }), {
        framework,
        handler: (req, res) => {
          res.writeHead(200, { 'content-length': '100' });
          res.write('partial');
          setImmediate(() => req.socket.destroy());
        },
      });
      try {
        await send(server, { path: '/cut' }).catch(() => undefined);
        assert.deepEqual(await server.capture.waitFor(1), ['/cut 200']);
        await delay(50);
        assert.equal(server.capture.lines.length, 1);
      } finally {
        await server.close();
      }
    });

    it('keep-alive requests on one connection are each logged once', async () => {
      const server = await loggedServer((stream) => logger(':url', { stream }), { framework });
      try {
        await sendRaw(server, [
          rawHead('GET', '/one', {}),
          rawHead('GET', '/two', { connection: 'close' }),
        ]);
        await server.capture.waitFor(2);
        await delay(50);
        assert.deepEqual(server.capture.lines, ['/one', '/two']);
      } finally {
        await server.close();
      }
    });
  });
}
