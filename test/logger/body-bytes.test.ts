// The body's size (`:res-body-bytes`, json's `http.response.body.size`, ecs's
// `http.response.body.bytes`): the announced length, or the bytes written when none was
// announced (chunked HTTP/1.1, HTTP/2), 0 without a body, and unknown for a response that did
// not finish.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import express5 from 'express';
import { logger } from '../../src/logger/index.js';
import {
  abandon,
  captureLines,
  type Handler,
  type SendOptions,
  send,
  sendRaw,
  type Transport,
} from '../helpers/index.js';
import { firstLine, listen, loggedServer, ownKeys } from '../helpers/logger.js';

/** `:res-body-bytes`, json's and ecs's size, for one request to `handler`. */
async function sizes(
  handler: Handler,
  options: { transport?: Transport; request?: SendOptions } = {},
): Promise<{ token: string; json: unknown; ecs: unknown; received: number }> {
  const server = await loggedServer((stream) => logger(':res-body-bytes', { stream }), {
    handler,
    after: [],
    ...(options.transport ? { transport: options.transport } : {}),
  });
  const jsonServer = await loggedServer((stream) => logger('json', { stream }), {
    handler,
    ...(options.transport ? { transport: options.transport } : {}),
  });
  const ecsServer = await loggedServer((stream) => logger('ecs', { stream }), {
    handler,
    ...(options.transport ? { transport: options.transport } : {}),
  });
  try {
    const reply = await send(server, options.request);
    await send(jsonServer, options.request);
    await send(ecsServer, options.request);
    const [token] = await server.capture.waitFor(1);
    const [json] = await jsonServer.capture.waitFor(1);
    const [ecs] = await ecsServer.capture.waitFor(1);
    return {
      token: token as string,
      json: JSON.parse(json as string)['http.response.body.size'],
      ecs: JSON.parse(ecs as string)['http.response.body.bytes'],
      received: Buffer.byteLength(reply.body),
    };
  } finally {
    await Promise.all([server.close(), jsonServer.close(), ecsServer.close()]);
  }
}

async function assertSize(
  handler: Handler,
  expected: number,
  options: Parameters<typeof sizes>[1] = {},
) {
  const got = await sizes(handler, options);
  assert.deepEqual(
    { token: got.token, json: got.json, ecs: got.ecs },
    { token: String(expected), json: expected, ecs: expected },
  );
}

const severalWrites: Handler = (_req, res) => {
  res.write('héllo ');
  res.write(Buffer.from('wörld '));
  res.write(new Uint8Array([0x21, 0x21]));
  res.write('68656c6c6f', 'hex');
  res.write('aGk=', 'base64');
  res.write('ÿ', 'latin1');
  res.end('€');
};
// 7 + 7 + 2 + 5 + 2 + 1 + 3
const SEVERAL_WRITES_BYTES = 27;

describe('the body size of a chunked HTTP/1.1 response', () => {
  it('is the bytes written: strings in their encodings, Buffers and Uint8Arrays', async () => {
    const got = await sizes(severalWrites);
    assert.equal(got.received, SEVERAL_WRITES_BYTES);
    assert.deepEqual([got.token, got.json, got.ecs], ['27', 27, 27]);
  });

  it('counts a body given to end after an explicit writeHead without a length', async () => {
    await assertSize((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ünïcode');
    }, 9);
  });

  it('counts the first write, which sends the head', async () => {
    await assertSize((_req, res) => {
      res.write('abc');
      res.end();
    }, 3);
  });

  it('is 0 for a chunked response with no body', async () => {
    await assertSize((_req, res) => {
      res.writeHead(200);
      res.end();
    }, 0);
  });

  it('does not count a write after the end', async () => {
    await assertSize((_req, res) => {
      res.write('ab');
      res.end('c');
      res.on('error', () => {});
      res.write('more');
    }, 3);
  });

  it('counts a body given whole to end whose length was removed', async () => {
    await assertSize((_req, res) => {
      res.removeHeader('content-length');
      res.setHeader('transfer-encoding', 'chunked');
      res.end('hello world');
    }, 11);
  });
});

describe('the body size over HTTP/2', () => {
  it('is the bytes of a body given whole to end', async () => {
    await assertSize((_req, res) => res.end('hello €'), 9, { transport: 'h2' });
  });

  it('is the bytes of several writes', async () => {
    const got = await sizes(severalWrites, { transport: 'h2' });
    assert.deepEqual([got.token, got.json, got.ecs], ['27', 27, 27]);
  });

  it('is the Content-Length given to writeHead', async () => {
    await assertSize((_req, res) => res.writeHead(200, { 'content-length': '5' }).end('hello'), 5, {
      transport: 'h2',
    });
  });
});

describe('the body size of a response that announced its length', () => {
  it('is the Content-Length (the write and end wrappers, installed on arrival, pass it through)', async () => {
    let keys: string[] = [];
    const handler: Handler = (_req, res) => {
      res.setHeader('content-length', '5');
      res.end('hello', () => {
        keys = ownKeys(res);
      });
    };
    const server = await loggedServer((stream) => logger('json', { stream }), { handler });
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string)['http.response.body.size'], 5);
    } finally {
      await server.close();
    }
    assert.ok(keys.includes('write') && keys.includes('end'), 'wrappers installed on arrival');
    await assertSize(handler, 5);
  });

  it('is the announced length even when the body written differs: nothing is counted', async () => {
    const server = await loggedServer((stream) => logger(':res-body-bytes', { stream }), {
      handler: (_req, res: ServerResponse) => {
        res.setHeader('content-length', '3');
        res.write('abcdef');
        res.end();
      },
    });
    try {
      await sendRaw(server, ['GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
      assert.deepEqual(await server.capture.waitFor(1), ['3']);
    } finally {
      await server.close();
    }
  });

  it("is Express's res.send length", async () => {
    const app = express5();
    const capture = captureLines();
    app.use(logger(':res-body-bytes :res[content-length]', { stream: capture.stream }));
    app.get('/', (_req, res) => {
      res.send('héllo');
    });
    const server = await listen(app as unknown as Parameters<typeof listen>[0]);
    try {
      await send(server);
      assert.deepEqual(await capture.waitFor(1), ['6 6']);
    } finally {
      await server.close();
    }
  });
});

describe('the body size of a response without a body', () => {
  for (const [name, handler, request] of [
    ['a 204', (_req, res) => res.writeHead(204).end(), {}],
    ['a 304', (_req, res) => res.writeHead(304).end(), {}],
    ['a response to HEAD', (_req, res) => res.end('hello'), { method: 'HEAD' }],
    [
      'a response to HEAD with a Content-Length',
      (_req, res) => res.writeHead(200, { 'content-length': 7 }).end(),
      { method: 'HEAD' },
    ],
  ] as const satisfies ReadonlyArray<readonly [string, Handler, SendOptions]>) {
    it(`is 0 for ${name}`, async () => {
      await assertSize(handler, 0, { request });
    });
  }
});

describe('the body size of a response that did not finish', () => {
  it('is unknown: - and no field', async () => {
    for (const format of [':res-body-bytes', 'json']) {
      const server = await loggedServer((stream) => logger(format, { stream }), {
        handler: (_req, res) => {
          res.write('partial');
        },
      });
      try {
        await abandon(server, { when: 'head' });
        const [line] = await server.capture.waitFor(1);
        if (format === 'json') {
          assert.equal('http.response.body.size' in JSON.parse(line as string), false);
        } else {
          assert.equal(line, '-');
        }
      } finally {
        await server.close();
      }
    }
  });
});

describe(':res-body-bytes', () => {
  it('is - for an HTTP/1.0 client that was sent an unannounced body, once counted', async () => {
    const line = await firstLine(
      (stream) => logger(':res-body-bytes', { stream }),
      {},
      {
        handler: (_req, res) => res.end('hello'),
      },
    );
    assert.equal(line, '5');
    const server = await loggedServer((stream) => logger(':res-body-bytes', { stream }), {
      handler: (_req, res) => {
        res.write('ab');
        res.end('c');
      },
    });
    try {
      await sendRaw(server, ['GET / HTTP/1.0\r\nHost: x\r\n\r\n']);
      assert.deepEqual(await server.capture.waitFor(1), ['3']);
    } finally {
      await server.close();
    }
  });

  it('is counted for a format function, which may call it', async () => {
    const line = await firstLine(
      (stream) =>
        logger((tokens, req, res) => `size ${tokens['res-body-bytes'](req, res)}`, { stream }),
      {},
      {
        handler: (_req, res) => {
          res.write('ab');
          res.end('cd');
        },
      },
    );
    assert.equal(line, 'size 4');
  });
});
