// A client that goes away before the response: logged once, with :status -. (One that the
// application answers all the same, and every transport: protocols.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { logger } from '../../src/logger/index.js';
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

describe('a status the application sets after its client went away', () => {
  it('is written escaped by a predefined format', async () => {
    // node:http keeps whatever is assigned to statusCode until a head is written: the line of
    // a request whose client went away names what the application set since, as text.
    const server = await loggedServer((stream) => logger('tiny', { stream }), {
      after: [
        (req, res) => {
          req.on('close', () => {
            (res as { statusCode: unknown }).statusCode = '4"0\n0';
          });
        },
      ],
    });
    try {
      await abandon(server, { path: '/gone', when: 'body', protocol: 'http1' });
      assert.deepEqual(await server.capture.waitFor(1), ['POST /gone 4\\"0\\n0 - - - ms']);
    } finally {
      await server.close();
    }
  });
});
