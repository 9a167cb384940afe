import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsers } from '../../src/index.js';
import { fetchLogger } from '../../src/logger/fetch.js';
import { serveFetch } from '../helpers/fetch.js';

// On srvx's Node adapter, `read` takes a body off the Node request behind the Request
// (`request.runtime.node.req`), as srvx's own `request.json()` does, so the Request's body
// stream is never made; the answers stay the Web door's (test/web/srvx runs the whole suite).

const { json } = parsers;

type Fetch = (request: Request) => Promise<Response>;

/** The Request's `body`, watched: whether anything asked srvx to make its stream. */
function watchBody(request: Request): { touched: boolean } {
  const state = { touched: false };
  const proto = Object.getPrototypeOf(request) as object;
  Object.defineProperty(request, 'body', {
    get() {
      state.touched = true;
      return Reflect.get(proto, 'body', request);
    },
  });
  return state;
}

async function withSrvx(fetch: Fetch, run: (origin: string) => Promise<void>): Promise<void> {
  const server = await serveFetch(fetch, 'srvx');
  try {
    await run(`http://127.0.0.1:${server.port}`);
  } finally {
    await server.close();
  }
}

async function answer(reading: Promise<unknown>): Promise<Response> {
  try {
    return Response.json(await reading);
  } catch (err) {
    const { status, type } = err as { status: number; type: string };
    return new Response(type, { status });
  }
}

test('on srvx, read takes the body off the Node request: the Request never makes its stream', async () => {
  let touched: boolean | undefined;
  await withSrvx(
    async (request) => {
      const watched = watchBody(request);
      const response = await answer(json.read(request));
      touched = watched.touched;
      return response;
    },
    async (origin) => {
      const response = await fetch(origin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":[1,2]}',
      });
      assert.deepEqual(await response.json(), { a: [1, 2] });
    },
  );
  assert.equal(touched, false);
});

test('on srvx, bodyTimeout bounds a body read off the Node request: a 408', async () => {
  await withSrvx(
    (request) => answer(json.read(request, { bodyTimeout: 150 })),
    async (origin) => {
      const { port } = new URL(origin);
      const { connect } = await import('node:net');
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a"',
      );
      const started = Date.now();
      const head = await new Promise<string>((resolve) =>
        socket.once('data', (chunk) => resolve(String(chunk))),
      );
      socket.destroy();
      assert.match(head, /^HTTP\/1\.1 408 /);
      assert.ok(Date.now() - started < 2000, 'answered once the bound passed');
    },
  );
});

test('on srvx, a failure read off the Node request is on the Request for fetchLogger', async () => {
  const lines: string[] = [];
  const log = fetchLogger(':status :error-type', {
    stream: { write: (line: string) => lines.push(line.trimEnd()) > 0 },
  } as never);
  await withSrvx(
    log((request: Request) => answer(json.read(request, { limit: 5 }))),
    async (origin) => {
      const response = await fetch(origin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":"0123456789"}',
      });
      assert.equal(response.status, 413);
      await response.text();
    },
  );
  for (let wait = 0; lines.length === 0 && wait < 50; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(lines, ['413 entity.too.large']);
});

test('on srvx, what a type function throws rejects a read off the Node request', async () => {
  const refusal = Object.assign(new Error('no such tenant'), {
    status: 404,
    type: 'tenant.unknown',
  });
  await withSrvx(
    (request: Request) =>
      answer(
        json.read(request, {
          type: () => {
            throw refusal;
          },
        }),
      ),
    async (origin) => {
      const response = await fetch(origin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      assert.equal(response.status, 404);
      assert.equal(await response.text(), 'tenant.unknown');
    },
  );
});
