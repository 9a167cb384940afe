// Option `start` on the fetch door: the arrival line when the handler is called, the
// completion line when its Response is done, under one request id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { fetchLogger } from '../../src/logger/index.js';
import { fetchAdapters, serveFetch } from '../helpers/fetch.js';
import { captureLines, send } from '../helpers/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('fetchLogger option start', () => {
  for (const adapter of fetchAdapters) {
    it(`writes the arrival line before the handler runs, then the completion line (${adapter})`, async () => {
      const capture = captureLines();
      const log = fetchLogger(':status :request-id', { stream: capture.stream, start: true });
      let linesWhenHandled = -1;
      const server = await serveFetch(
        log(() => {
          linesWhenHandled = capture.lines.length;
          return new Response('ok');
        }),
        adapter,
      );
      try {
        await send(server, { path: '/w?q=1' });
        const [arrival, completion] = await capture.waitFor(2);
        assert.equal(linesWhenHandled, 1);
        const id = (arrival as string).split(' ').at(-1) as string;
        assert.match(id, UUID);
        assert.equal(arrival, `started GET /w?q=1 ${id}`);
        assert.equal(completion, `200 ${id}`);
      } finally {
        await server.close();
      }
    });
  }

  it('keeps the id of the requestId option on both lines and in the response', async () => {
    const capture = captureLines();
    const log = fetchLogger(':request-id', {
      stream: capture.stream,
      start: ':request-id',
      requestId: true,
    });
    const server = await serveFetch(log(() => new Response('ok')));
    try {
      const reply = await send(server, { headers: { 'x-request-id': 'edge-7' } });
      assert.equal(reply.headers['x-request-id'], 'edge-7');
      assert.deepEqual(await capture.waitFor(2), ['edge-7', 'edge-7']);
    } finally {
      await server.close();
    }
  });

  it('writes json arrival lines marked event.phase start as a Hono middleware', async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream, start: true });
    const app = new Hono();
    app.use(log.middleware);
    app.get('/h', (c) => c.text('ok'));
    const server = await serveFetch(app.fetch);
    try {
      await send(server, { path: '/h' });
      const [arrival, completion] = (await capture.waitFor(2)).map((l) => JSON.parse(l));
      assert.equal(arrival['event.phase'], 'start');
      assert.equal(arrival['http.request.id'], completion['http.request.id']);
      assert.equal(completion['http.response.status_code'], 200);
    } finally {
      await server.close();
    }
  });

  it('refuses the body option, which the fetch door cannot read', () => {
    assert.throws(() => fetchLogger('json', { body: { fields: ['a'] } } as never), TypeError);
  });
});
