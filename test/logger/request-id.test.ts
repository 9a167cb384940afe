// The requestId middleware: a trusted, well-formed incoming id is kept; anything else gets a
// random UUID; the id lands on req.id, in the response header and in every format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger, requestId } from '../../src/logger/index.js';
import { frameworks, rawHead, send, sendRaw } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A server with requestId(options) before a `:request-id` logger; the handler echoes req.id. */
function idServer(
  options?: Parameters<typeof requestId>[0],
  framework?: (typeof frameworks)[number],
) {
  return loggedServer((stream) => logger(':request-id', { stream }), {
    ...(framework === undefined ? {} : { framework }),
    before: [requestId(options)],
    handler: (req, res) => {
      res.end(String((req as { id?: unknown }).id));
    },
  });
}

for (const framework of frameworks) {
  describe(`requestId in ${framework}`, () => {
    it('keeps a valid incoming X-Request-Id on req.id, the response and the line', async () => {
      const server = await idServer(undefined, framework);
      try {
        const reply = await send(server, { headers: { 'x-request-id': 'abc-123_x.y:z=+@' } });
        assert.equal(reply.text, 'abc-123_x.y:z=+@');
        assert.equal(reply.headers['x-request-id'], 'abc-123_x.y:z=+@');
        assert.deepEqual(await server.capture.waitFor(1), ['abc-123_x.y:z=+@']);
      } finally {
        await server.close();
      }
    });

    it('generates a random UUID when the request has none', async () => {
      const server = await idServer(undefined, framework);
      try {
        const reply = await send(server);
        assert.match(reply.text, UUID);
        assert.equal(reply.headers['x-request-id'], reply.text);
        assert.deepEqual(await server.capture.waitFor(1), [reply.text]);
      } finally {
        await server.close();
      }
    });
  });
}

describe('requestId input', () => {
  it('replaces an id with characters outside the allowed set', async () => {
    const server = await idServer();
    try {
      const reply = await send(server, { headers: { 'x-request-id': 'evil id"\\<script>' } });
      assert.match(reply.text, UUID);
      assert.equal(reply.headers['x-request-id'], reply.text);
      const [line] = await server.capture.waitFor(1);
      assert.equal(line, reply.text);
    } finally {
      await server.close();
    }
  });

  // An id an application files something under (`dumps/${req.id}.json`) stays one segment
  // of a path, and never names the directory itself, its parent or a hidden file.
  for (const [label, id] of [
    ['a slash', 'a/b'],
    ['a backslash', 'a\\b'],
    ['two dots in a row', 'a..b'],
    ['only two dots', '..'],
    ['only a dot', '.'],
    ['a dot first', '.env'],
    ['a parent segment in a path', '../../etc/passwd'],
  ]) {
    it(`replaces an id with ${label}`, async () => {
      const server = await idServer();
      try {
        const reply = await send(server, { headers: { 'x-request-id': id as string } });
        assert.match(reply.text, UUID);
        assert.deepEqual(await server.capture.waitFor(1), [reply.text]);
      } finally {
        await server.close();
      }
    });
  }

  it('keeps an id with single dots inside and at its end', async () => {
    const server = await idServer();
    try {
      const reply = await send(server, { headers: { 'x-request-id': 'v1.2.3.' } });
      assert.equal(reply.text, 'v1.2.3.');
    } finally {
      await server.close();
    }
  });

  it('keeps an id of exactly 128 characters', async () => {
    const server = await idServer();
    try {
      const id = 'a'.repeat(128);
      const reply = await send(server, { headers: { 'x-request-id': id } });
      assert.equal(reply.text, id);
    } finally {
      await server.close();
    }
  });

  it('replaces an id of 129 characters', async () => {
    const server = await idServer();
    try {
      const reply = await send(server, { headers: { 'x-request-id': 'a'.repeat(129) } });
      assert.match(reply.text, UUID);
    } finally {
      await server.close();
    }
  });

  it('replaces an empty id', async () => {
    const server = await idServer();
    try {
      const reply = await sendRaw(server, [rawHead('GET', '/', { 'X-Request-Id': '' })]);
      const id = /x-request-id: ([^\r]+)/i.exec(reply.raw)?.[1] ?? '';
      assert.match(id, UUID);
    } finally {
      await server.close();
    }
  });

  it('replaces a repeated header (joined with ", ")', async () => {
    const server = await idServer();
    try {
      const reply = await sendRaw(server, [
        'GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\r\nX-Request-Id: b\r\nConnection: close\r\n\r\n',
      ]);
      const id = /x-request-id: ([^\r]+)/i.exec(reply.raw)?.[1] ?? '';
      assert.match(id, UUID);
    } finally {
      await server.close();
    }
  });

  it('a tab, quote, backslash or obs-text in the header never reaches the line or the response', async () => {
    const server = await idServer();
    try {
      const reply = await sendRaw(server, [
        'GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: ok\t"\\\xe9\x85\r\nConnection: close\r\n\r\n',
      ]);
      const id = /x-request-id: ([^\r]+)/i.exec(reply.raw)?.[1] ?? '';
      assert.match(id, UUID);
      const [line] = await server.capture.waitFor(1);
      assert.equal(line, id);
    } finally {
      await server.close();
    }
  });

  it('gives every request its own id, never a counter', async () => {
    const server = await idServer();
    try {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await send(server)).text);
      assert.equal(ids.size, 5);
      for (const id of ids) assert.match(id, UUID);
    } finally {
      await server.close();
    }
  });
});

describe('requestId options', () => {
  it('trust: false replaces even a valid incoming id', async () => {
    const server = await idServer({ trust: false });
    try {
      const reply = await send(server, { headers: { 'x-request-id': 'abc-123' } });
      assert.match(reply.text, UUID);
      assert.equal(reply.headers['x-request-id'], reply.text);
    } finally {
      await server.close();
    }
  });

  it('header: reads and writes another header, case-insensitively', async () => {
    const server = await idServer({ header: 'X-Correlation-ID' });
    try {
      const reply = await send(server, {
        headers: { 'x-correlation-id': 'corr-1', 'x-request-id': 'ignored' },
      });
      assert.equal(reply.text, 'corr-1');
      assert.equal(reply.headers['x-correlation-id'], 'corr-1');
      assert.equal(reply.headers['x-request-id'], undefined);
    } finally {
      await server.close();
    }
  });

  it('bad options are a TypeError at creation', () => {
    assert.throws(() => requestId({ header: 'bad header' }), TypeError);
    assert.throws(() => requestId({ header: '' }), TypeError);
    assert.throws(() => requestId({ trust: 'yes' as never }), TypeError);
    assert.throws(() => requestId('x-id' as never), TypeError);
  });

  it('is logger.requestId too', () => {
    assert.equal(logger.requestId, requestId);
  });
});

describe(':request-id in formats', () => {
  it('is "-" in a text format without the middleware', async () => {
    const server = await loggedServer((stream) => logger(':method :request-id', { stream }));
    try {
      await send(server, { headers: { 'x-request-id': 'not-trusted-without-middleware' } });
      assert.deepEqual(await server.capture.waitFor(1), ['GET -']);
    } finally {
      await server.close();
    }
  });

  it('is http.request.id in the json format', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      before: [requestId()],
    });
    try {
      await send(server, { headers: { 'x-request-id': 'json-1' } });
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string)['http.request.id'], 'json-1');
    } finally {
      await server.close();
    }
  });
});
