// The route httpwareLogger's lines carry on Fastify 5 (`:route`, `http.route`): the matched
// route's url as declared, its plugins' prefixes included; none for the 404 handler.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import type { FastifyInstance } from 'fastify';
import { httpwareLogger } from '../../src/fastify/index.js';
import { startFastify } from '../helpers/fastify.js';
import { captureLines, send } from '../helpers/index.js';

/** The lines `format` writes for `paths`, requested in turn, to an app built by `build`. */
async function routeLines(
  format: string,
  build: (app: FastifyInstance) => void,
  paths: readonly string[],
): Promise<string[]> {
  const capture = captureLines();
  const server = await startFastify((app) => {
    app.register(httpwareLogger, { format, stream: capture.stream });
    build(app);
  });
  try {
    for (const path of paths) await send(server, { path });
    return [...(await capture.waitFor(paths.length))];
  } finally {
    await server.close();
  }
}

const users = (app: FastifyInstance) => app.get('/users/:id', async () => 'ok');

describe('the route of a line on Fastify', () => {
  it("is the matched route's template in :route, whatever the id", async () => {
    const lines = await routeLines(':route :url', users, ['/users/1', '/users/2?x=y']);
    assert.deepEqual(lines, ['/users/:id /users/1', '/users/:id /users/2?x=y']);
  });

  it("is the json line's http.route", async () => {
    const [line] = await routeLines('json', users, ['/users/42']);
    assert.equal(JSON.parse(line as string)['http.route'], '/users/:id');
  });

  it("is the OpenTelemetry record's http.route, under a text format that has no :route", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const capture = captureLines();
    const server = await startFastify((app) => {
      app.register(httpwareLogger, {
        format: 'tiny',
        stream: capture.stream,
        otel: { loggerProvider },
      });
      users(app);
    });
    try {
      await send(server, { path: '/users/9' });
      await capture.waitFor(1);
    } finally {
      await server.close();
    }
    const [record] = exporter.getFinishedLogRecords();
    assert.equal(record?.attributes['http.route'], '/users/:id');
  });

  it('includes the prefix of the plugin that declared the route', async () => {
    const lines = await routeLines(
      ':route',
      (app) => app.register(async (child) => users(child), { prefix: '/api' }),
      ['/api/users/7'],
    );
    assert.deepEqual(lines, ['/api/users/:id']);
  });

  it('is absent from a 404: no route matched, and the raw path is not taken', async () => {
    const lines = await routeLines(':status :route', users, ['/nothing', '/users']);
    assert.deepEqual(lines, ['404 -', '404 -']);
  });

  it('is the route of a handler that threw', async () => {
    const lines = await routeLines(
      ':status :route',
      (app) =>
        app.get('/users/:id', async () => {
          throw new Error('boom');
        }),
      ['/users/1'],
    );
    assert.deepEqual(lines, ['500 /users/:id']);
  });
});
