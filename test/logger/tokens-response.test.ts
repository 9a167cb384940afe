// The tokens that read the response: status and res[header].
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, type Handler, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

async function lineFor(
  framework: (typeof frameworks)[number],
  format: string,
  handler: Handler,
): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), {
    framework,
    handler,
  });
  try {
    await send(server);
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

for (const framework of frameworks) {
  describe(`response tokens in ${framework}`, () => {
    it(':status is the status code sent', async () => {
      const line = await lineFor(framework, ':status', (_req, res) => {
        res.statusCode = 418;
        res.end();
      });
      assert.equal(line, '418');
    });

    it(':status is the status given to writeHead', async () => {
      const line = await lineFor(framework, ':status', (_req, res) => {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('down');
      });
      assert.equal(line, '503');
    });

    it(':res[header] reads a response header, in any case', async () => {
      const line = await lineFor(framework, ':res[Content-Type]', (_req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.end('x');
      });
      assert.equal(line, 'text/plain');
    });

    it(':res[header] is - when the header is absent', async () => {
      const line = await lineFor(framework, ':res[x-absent]', (_req, res) => res.end());
      assert.equal(line, '-');
    });

    it(':res[header] joins an array value with ", "', async () => {
      const line = await lineFor(framework, ':res[x-tags]', (_req, res) => {
        res.setHeader('x-tags', ['a=1', 'b=2']);
        res.end();
      });
      assert.equal(line, 'a=1, b=2');
    });

    it(':res[header] prints a number value as it is', async () => {
      const line = await lineFor(framework, ':res[content-length]', (_req, res) => {
        res.setHeader('content-length', 5);
        res.end('hello');
      });
      assert.equal(line, '5');
    });

    it(':res[header] reads a header given to writeHead only', async () => {
      const line = await lineFor(framework, ':res[content-length] :res[x-b]', (_req, res) => {
        res.writeHead(200, { 'Content-Length': 2, 'X-B': ['1', '2'] });
        res.end('ok');
      });
      assert.equal(line, '2 1, 2');
    });

    it(':res[header] reads headers given to writeHead as a flat list', async () => {
      const flat = await lineFor(framework, ':res[x-f]', (_req, res) => {
        res.writeHead(200, ['X-F', 'a', 'x-f', 'b']);
        res.end();
      });
      assert.equal(flat, 'a, b');
    });

    // Node's writeHead rejects [name, value] pairs once a header is set (Express sets one).
    if (!framework.startsWith('express')) {
      it(':res[header] reads headers given to writeHead as pairs', async () => {
        const pairs = await lineFor(framework, ':res[x-p]', (_req, res) => {
          res.writeHead(200, [
            ['X-P', 'first'],
            ['x-p', 'last'],
          ]);
          res.end();
        });
        assert.equal(pairs, 'last');
      });
    }

    it(':res[content-length] is the length the framework set', async () => {
      const line = await lineFor(framework, ':res[content-length]', (_req, res) => {
        res.setHeader('content-length', Buffer.byteLength('héllo'));
        res.end('héllo');
      });
      assert.equal(line, '6');
    });
  });
}
