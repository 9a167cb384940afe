// Option `start`: an arrival line when the request comes and the completion line when it is
// done, in one logger, both carrying the same request id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger, requestId } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { loggedServer, okHandler } from '../helpers/logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const framework of frameworks) {
  describe(`option start in ${framework}`, () => {
    it('writes the arrival line before the handler runs and the completion line after', async () => {
      let linesWhenHandled = -1;
      const server = await loggedServer(
        (stream) => logger(':status :url', { stream, start: true }),
        {
          framework,
          handler: (req, res) => {
            linesWhenHandled = server.capture.lines.length;
            okHandler(req, res);
          },
        },
      );
      try {
        await send(server, { path: '/orders?x=1' });
        const [arrival, completion] = await server.capture.waitFor(2);
        assert.equal(linesWhenHandled, 1, 'the arrival line existed when the handler ran');
        assert.match(arrival as string, /^started GET \/orders\?x=1 [0-9a-f-]{36}$/);
        assert.equal(completion, '200 /orders?x=1');
      } finally {
        await server.close();
      }
    });
  });
}

describe('option start: the request id', () => {
  it('gives both lines one new UUID when the request has no id', async () => {
    const server = await loggedServer((stream) =>
      logger(':request-id done', { stream, start: ':request-id came' }),
    );
    try {
      await send(server);
      const [arrival, completion] = await server.capture.waitFor(2);
      const id = (arrival as string).split(' ')[0] as string;
      assert.match(id, UUID);
      assert.equal(completion, `${id} done`);
    } finally {
      await server.close();
    }
  });

  it('gives both lines one id over HTTP/2', async () => {
    const server = await loggedServer(
      (stream) => logger(':request-id :http-version', { stream, start: ':request-id' }),
      { transport: 'h2' },
    );
    try {
      await send(server);
      const [arrival, completion] = await server.capture.waitFor(2);
      assert.match(arrival as string, UUID);
      assert.equal(completion, `${arrival} 2.0`);
    } finally {
      await server.close();
    }
  });

  it('sets the generated id as req.id for the application', async () => {
    const server = await loggedServer((stream) => logger(':request-id', { stream, start: true }), {
      handler: (req, res) => res.end(String((req as { id?: unknown }).id)),
    });
    try {
      const reply = await send(server);
      const [, completion] = await server.capture.waitFor(2);
      assert.equal(reply.text, completion);
    } finally {
      await server.close();
    }
  });

  it('keeps the id a requestId middleware before it set', async () => {
    const server = await loggedServer(
      (stream) => logger(':request-id', { stream, start: ':request-id' }),
      { before: [requestId()] },
    );
    try {
      await send(server, { headers: { 'x-request-id': 'abc-123' } });
      assert.deepEqual(await server.capture.waitFor(2), ['abc-123', 'abc-123']);
    } finally {
      await server.close();
    }
  });

  it('leaves req.id alone when the option is off', async () => {
    const server = await loggedServer((stream) => logger(':url', { stream }), {
      handler: (req, res) => res.end(String((req as { id?: unknown }).id)),
    });
    try {
      const reply = await send(server);
      assert.equal(reply.text, 'undefined');
      assert.deepEqual(await server.capture.waitFor(1), ['/']);
    } finally {
      await server.close();
    }
  });
});

describe('option start with the JSON formats', () => {
  it('json: the arrival line is marked event.phase start and has no status', async () => {
    const server = await loggedServer((stream) => logger('json', { stream, start: true }));
    try {
      await send(server, { path: '/a?b=1', headers: { 'user-agent': 'probe' } });
      const [arrival, completion] = (await server.capture.waitFor(2)).map((l) => JSON.parse(l));
      assert.equal(arrival['event.phase'], 'start');
      assert.equal(arrival.msg, 'GET /a started');
      assert.equal(arrival['url.query'], 'b=1');
      assert.equal(arrival['user_agent.original'], 'probe');
      assert.equal(arrival['http.response.status_code'], undefined);
      assert.equal(completion['event.phase'], undefined);
      assert.equal(completion['http.response.status_code'], 200);
      assert.match(arrival['http.request.id'], UUID);
      assert.equal(completion['http.request.id'], arrival['http.request.id']);
    } finally {
      await server.close();
    }
  });

  it('ecs: the arrival line is marked event.type start', async () => {
    const server = await loggedServer((stream) => logger('ecs', { stream, start: true }));
    try {
      await send(server, { path: '/e' });
      const [arrival, completion] = (await server.capture.waitFor(2)).map((l) => JSON.parse(l));
      assert.equal(arrival['event.type'], 'start');
      assert.equal(arrival.message, 'GET /e started');
      assert.equal(arrival['ecs.version'], completion['ecs.version']);
      assert.equal(completion['event.type'], undefined);
      assert.equal(completion['http.request.id'], arrival['http.request.id']);
    } finally {
      await server.close();
    }
  });
});

describe('option start and the other options', () => {
  it('asks skip on arrival too, so a skipped path writes neither line', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        start: true,
        skip: (req) => req.url === '/health',
      }),
    );
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/kept' });
      const lines = await server.capture.waitFor(2);
      assert.equal(lines.length, 2);
      assert.match(lines[0] as string, /^started GET \/kept /);
      assert.equal(lines[1], '/kept');
    } finally {
      await server.close();
    }
  });

  it('leaves out both lines of an excluded path, and only the completion line of a sampled-out success', async () => {
    const server = await loggedServer(
      (stream) =>
        logger(':url :status', {
          stream,
          start: ':url came',
          exclude: { paths: ['/health'] },
          sample: 0,
        }),
      {
        handler: (req, res) => {
          res.statusCode = req.url === '/missing' ? 404 : 200;
          res.end();
        },
      },
    );
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/ok' });
      await send(server, { path: '/missing' });
      const lines = await server.capture.waitFor(3);
      assert.deepEqual(lines, ['/ok came', '/missing came', '/missing 404']);
    } finally {
      await server.close();
    }
  });

  it('refuses start with immediate', () => {
    assert.throws(() => logger('tiny', { start: true, immediate: true }), {
      name: 'TypeError',
      message: 'options start and immediate cannot be used together',
    });
  });

  it('refuses a start that is not a format', () => {
    assert.throws(() => logger('tiny', { start: 42 as never }), TypeError);
  });

  it('refuses start when OpenTelemetry records are the only output', () => {
    const loggerProvider = { getLogger: () => ({ emit() {} }) };
    assert.throws(() => logger('json', { start: true, otel: { loggerProvider } }), TypeError);
  });
});
