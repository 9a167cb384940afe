// The tokens that read the request: method, url, http-version, referrer, user-agent,
// req[header], pid. Each is checked in every framework.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

/** Logs one request with `format` and returns its line. */
async function lineFor(
  framework: (typeof frameworks)[number],
  format: string,
  request: Parameters<typeof send>[1] = {},
): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), { framework });
  try {
    await send(server, request);
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

for (const framework of frameworks) {
  describe(`request tokens in ${framework}`, () => {
    it(':method is the request method', async () => {
      assert.equal(await lineFor(framework, ':method', { method: 'DELETE' }), 'DELETE');
    });

    it(':url is the request URL with its query', async () => {
      assert.equal(await lineFor(framework, ':url', { path: '/a/b?c=d&e' }), '/a/b?c=d&e');
    });

    it(':http-version is major.minor', async () => {
      assert.equal(await lineFor(framework, 'HTTP/:http-version'), 'HTTP/1.1');
    });

    it(':referrer reads the Referer header', async () => {
      const line = await lineFor(framework, ':referrer', {
        headers: { referer: 'http://example.com/from' },
      });
      assert.equal(line, 'http://example.com/from');
    });

    it(':referrer falls back to the Referrer spelling', async () => {
      const line = await lineFor(framework, ':referrer', {
        headers: { referrer: 'http://example.com/other' },
      });
      assert.equal(line, 'http://example.com/other');
    });

    it(':referrer is - without either header', async () => {
      assert.equal(await lineFor(framework, ':referrer'), '-');
    });

    it(':user-agent is the User-Agent header', async () => {
      const line = await lineFor(framework, ':user-agent', {
        headers: { 'user-agent': 'curl/8.0 (x)' },
      });
      assert.equal(line, 'curl/8.0 (x)');
    });

    it(':req[header] reads the named header, in any case', async () => {
      const line = await lineFor(framework, ':req[X-Request-Id]', {
        headers: { 'x-request-id': 'abc-123' },
      });
      assert.equal(line, 'abc-123');
    });

    it(':req[header] is - when the header is absent', async () => {
      assert.equal(await lineFor(framework, ':req[x-absent]'), '-');
    });

    it(':req[header] joins a repeated header with ", "', async () => {
      // Node already joins most repeated request headers into one string; a middleware may
      // still store an array, which the token joins as morgan does.
      const server = await loggedServer((stream) => logger(':req[x-list]', { stream }), {
        framework,
        before: [
          (req, _res, next) => {
            req.headers['x-list'] = ['a', 'b'] as unknown as string;
            next();
          },
        ],
      });
      try {
        await send(server);
        assert.deepEqual(await server.capture.waitFor(1), ['a, b']);
      } finally {
        await server.close();
      }
    });

    it(':pid is the process id', async () => {
      assert.equal(await lineFor(framework, ':pid'), String(process.pid));
    });
  });
}
