// The `json` predefined format: every field with its type, in every framework, on a frozen
// clock; values nobody knows are left out; the route when the framework knows it.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import express5 from 'express';
import express4 from 'express4';
import { logger } from '../../src/logger/index.js';
import {
  captureLines,
  frameworks,
  type Handler,
  type SendOptions,
  send,
  sendRaw,
} from '../helpers/index.js';
import { fixTime, listen, loggedServer } from '../helpers/logger.js';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime(1.5);
});
afterEach(() => undo());

const request: SendOptions = {
  path: '/users/42?sort=desc&page=3',
  headers: {
    'user-agent': 'test-agent/1.0',
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  },
};

// Arrival at 1.5 and line at 3.0 on the stepping clock (nothing reads the head): 1.5 ms.
const expected = {
  time: '2000-10-10T13:55:36.789Z',
  level: 'info',
  msg: 'GET /users/42 200 1.5 ms',
  'http.request.method': 'GET',
  'url.path': '/users/42',
  'url.query': 'sort=desc&page=3',
  'http.response.status_code': 200,
  'http.response.body.size': 2,
  duration_ms: 1.5,
  'client.address': '127.0.0.1',
  'user_agent.original': 'test-agent/1.0',
  'network.protocol.version': '1.1',
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
};

for (const framework of frameworks) {
  describe(`the json format in ${framework}`, () => {
    it('writes one JSON object per line with every known field, typed', async () => {
      const server = await loggedServer((stream) => logger('json', { stream }), { framework });
      try {
        await send(server, request);
        const [line] = await server.capture.waitFor(1);
        assert.deepEqual(JSON.parse(line as string), expected);
      } finally {
        await server.close();
      }
    });

    it('keeps its keys in a fixed order: time, level and msg first', async () => {
      const server = await loggedServer((stream) => logger('json', { stream }), { framework });
      try {
        await send(server, request);
        const [line] = await server.capture.waitFor(1);
        assert.deepEqual(Object.keys(JSON.parse(line as string)), Object.keys(expected));
      } finally {
        await server.close();
      }
    });
  });
}

describe('json format values', () => {
  it('leaves out the query, user agent, id and trace when there are none', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => {
        res.statusCode = 204;
        res.end();
      },
    });
    try {
      await send(server, { method: 'DELETE', path: '/x' });
      const [line] = await server.capture.waitFor(1);
      assert.deepEqual(Object.keys(JSON.parse(line as string)).sort(), [
        'client.address',
        'duration_ms',
        'http.request.method',
        'http.response.body.size',
        'http.response.status_code',
        'level',
        'msg',
        'network.protocol.version',
        'time',
        'url.path',
      ]);
    } finally {
      await server.close();
    }
  });

  it('never writes "-" for a value it does not know', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }));
    try {
      await send(server, { path: '/' });
      const [line] = await server.capture.waitFor(1);
      assert.ok(!Object.values(JSON.parse(line as string)).includes('-'), line);
    } finally {
      await server.close();
    }
  });

  it('level is "warn" for a 4xx response', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => {
        res.statusCode = 404;
        res.end();
      },
    });
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string).level, 'warn');
    } finally {
      await server.close();
    }
  });

  it('level is "error" for a 5xx response', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => {
        res.statusCode = 503;
        res.end();
      },
    });
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      const entry = JSON.parse(line as string);
      assert.equal(entry.level, 'error');
      assert.equal(entry['http.response.status_code'], 503);
    } finally {
      await server.close();
    }
  });

  it('a request that ends before any response is "warn", without status or duration', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: () => {},
    });
    try {
      await sendRaw(server, ['GET /hang HTTP/1.1\r\nHost: x\r\n\r\n'], { abort: true });
      const [line] = await server.capture.waitFor(1);
      const entry = JSON.parse(line as string);
      assert.equal(entry.level, 'warn');
      assert.equal(entry.msg, 'GET /hang (no response)');
      assert.equal('http.response.status_code' in entry, false);
      assert.equal('duration_ms' in entry, false);
    } finally {
      await server.close();
    }
  });

  it('the path comes from the full URL inside a mounted Express app', async () => {
    const capture = captureLines();
    const app = express5();
    const inner = express5.Router();
    inner.use(logger('json', { stream: capture.stream }));
    inner.use((_req, res) => {
      res.end('ok');
    });
    app.use('/api', inner);
    const server = await listen(app);
    try {
      await send(server, { path: '/api/items?x=1' });
      const [line] = await capture.waitFor(1);
      const entry = JSON.parse(line as string);
      assert.equal(entry['url.path'], '/api/items');
      assert.equal(entry['url.query'], 'x=1');
    } finally {
      await server.close();
    }
  });

  it('an empty query ("/x?") is left out', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }));
    try {
      await send(server, { path: '/x?' });
      const [line] = await server.capture.waitFor(1);
      assert.equal('url.query' in JSON.parse(line as string), false);
    } finally {
      await server.close();
    }
  });
});

describe('json http.response.body.size', () => {
  async function sizeFor(handler: Handler): Promise<unknown> {
    const server = await loggedServer((stream) => logger('json', { stream }), { handler });
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      return JSON.parse(line as string)['http.response.body.size'];
    } finally {
      await server.close();
    }
  }

  it('is the Content-Length node:http announced itself for a body given whole to end', async () => {
    assert.equal(await sizeFor((_req, res) => res.end('hello')), 5);
  });

  it('is the Content-Length given only to writeHead', async () => {
    const size = await sizeFor((_req, res) => {
      res.writeHead(200, { 'content-length': '3' });
      res.end('abc');
    });
    assert.equal(size, 3);
  });

  it('is left out when no response was sent, whatever header was set', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => res.setHeader('content-length', 10),
    });
    try {
      await sendRaw(server, ['GET /hang HTTP/1.1\r\nHost: x\r\n\r\n'], { abort: true });
      const [line] = await server.capture.waitFor(1);
      assert.equal('http.response.body.size' in JSON.parse(line as string), false);
    } finally {
      await server.close();
    }
  });

  it('is left out for a header value that is not one integer', async () => {
    const size = await sizeFor((_req, res) => {
      res.setHeader('content-length', []);
      res.end();
    });
    assert.equal(size, undefined);
  });

  it('is the length of a body given whole to end, sent unannounced to an HTTP/1.0 client', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => res.end('hello'),
    });
    try {
      const { raw } = await sendRaw(server, ['GET / HTTP/1.0\r\nHost: x\r\n\r\n']);
      assert.doesNotMatch(raw, /content-length/i);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string)['http.response.body.size'], 5);
    } finally {
      await server.close();
    }
  });

  it('is 0 for a response to HEAD that announced no length', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => res.end('hello'),
    });
    try {
      await sendRaw(server, ['HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string)['http.response.body.size'], 0);
    } finally {
      await server.close();
    }
  });

  it('is 0 for a response to HEAD, whatever Content-Length it was given', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: (_req, res) => res.writeHead(200, { 'content-length': 7 }).end(),
    });
    try {
      await sendRaw(server, ['HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string)['http.response.body.size'], 0);
    } finally {
      await server.close();
    }
  });

  it('is the bytes of a body given whole to end but sent chunked, its length removed', async () => {
    const size = await sizeFor((_req, res) => {
      res.setHeader('content-length', 5);
      res.removeHeader('content-length');
      res.end('hello world');
    });
    assert.equal(size, 11);
  });

  it('is the bytes written for a chunked response', async () => {
    const size = await sizeFor((_req, res) => {
      res.write('a');
      res.end('b');
    });
    assert.equal(size, 2);
  });
});

for (const [name, express] of [
  ['Express 4', express4],
  ['Express 5', express5],
] as const) {
  describe(`http.route in ${name}`, () => {
    it('is the matched route pattern, with the router it is mounted on', async () => {
      const capture = captureLines();
      const app = express();
      app.use(logger('json', { stream: capture.stream }));
      const users = express.Router();
      users.get('/:id', (_req, res) => {
        res.send('ok');
      });
      app.use('/users', users);
      const server = await listen(app as unknown as Parameters<typeof listen>[0]);
      try {
        await send(server, { path: '/users/42' });
        const [line] = await capture.waitFor(1);
        assert.equal(JSON.parse(line as string)['http.route'], '/users/:id');
      } finally {
        await server.close();
      }
    });

    it('is left out when no route matched', async () => {
      const capture = captureLines();
      const app = express();
      app.use(logger('json', { stream: capture.stream }));
      const server = await listen(app as unknown as Parameters<typeof listen>[0]);
      try {
        await send(server, { path: '/nowhere' });
        const [line] = await capture.waitFor(1);
        const entry = JSON.parse(line as string);
        assert.equal(entry['http.response.status_code'], 404);
        assert.equal('http.route' in entry, false);
      } finally {
        await server.close();
      }
    });
  });
}
