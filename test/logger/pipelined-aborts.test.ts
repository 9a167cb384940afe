// Pipelined requests whose connection closes before they are answered. On Node 20 and 22 a
// response still queued behind an earlier one on a keep-alive connection never emits 'close'
// when the socket closes (nodejs/node PR #62534), so a door listening to the response alone
// would never end such a request: no line, no metrics, and `http.server.active_requests`
// counted up for ever, one packet per connection. Each must end once, as any aborted request.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import morgan from 'morgan';
import { httpwareLogger } from '../../src/fastify/index.js';
import { koa, logger } from '../../src/index.js';
import { pipelineThenLeave, rawHead, sendRaw } from '../helpers/client.js';
import { startFastify } from '../helpers/fastify.js';
import { koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines, type LineCapture } from '../helpers/lines.js';
import { loggedServer } from '../helpers/logger.js';
import { histogramPoints, type MetricsSdk, metricsSdk, sumPoints } from '../helpers/metrics.js';
import { frameworks } from '../helpers/server.js';

const FORMAT = ':method :url :status';
/** How long the application takes to answer once its client has left. */
const ANSWER_MS = 30;
const CONNECTIONS = 3;
const PIPELINED = 8;

/**
 * Calls `then` ANSWER_MS after the request closed (its client left): the application answers
 * only once the connection is gone, however slow the machine, as a slow handler would.
 */
function afterClientLeft(req: IncomingMessage, then: () => void): void {
  const later = () => setTimeout(then, ANSWER_MS);
  if (req.destroyed) later();
  else req.once('close', later);
}

/** `afterClientLeft` as a promise. */
function clientLeft(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => afterClientLeft(req, resolve));
}

/** The paths each connection pipelines. */
function pathsOf(connection: number): string[] {
  return Array.from({ length: PIPELINED }, (_, i) => `/c${connection}/p${i}`);
}

/**
 * Opens CONNECTIONS connections that each pipeline PIPELINED requests and leave before any is
 * answered; then checks that every request was logged once as aborted (no status), counted
 * once as `request.aborted`, and that no request is still counted active.
 */
async function everyPipelinedRequestEnds(
  server: { port: number },
  capture: LineCapture,
  sdk: MetricsSdk,
): Promise<void> {
  for (let c = 0; c < CONNECTIONS; c++) await pipelineThenLeave(server, pathsOf(c));
  const all = Array.from({ length: CONNECTIONS }, (_, c) => pathsOf(c)).flat();
  await capture.waitFor(all.length);
  // The application's late answers come and go: still one line each.
  await delay(ANSWER_MS * 2);
  assert.deepEqual([...capture.lines].sort(), all.map((path) => `GET ${path} -`).sort());
  const metrics = await sdk.collect();
  const durations = histogramPoints(metrics.get('http.server.request.duration'));
  assert.equal(
    durations.reduce((n, p) => n + p.value.count, 0),
    all.length,
  );
  assert.ok(durations.every((p) => p.attributes['error.type'] === 'request.aborted'));
  const active = sumPoints(metrics.get('http.server.active_requests')).map((p) => p.value);
  assert.deepEqual(active, [0]);
}

for (const framework of frameworks) {
  describe(`pipelined requests left before their answer, ${framework}`, () => {
    it('are each logged once and counted aborted, none left active', async () => {
      const sdk = metricsSdk();
      const server = await loggedServer(
        (stream) => logger(FORMAT, { stream, metrics: { meter: sdk.meter } }),
        {
          framework,
          handler: (req, res) => afterClientLeft(req, () => res.end('x')),
        },
      );
      try {
        await everyPipelinedRequestEnds(server, server.capture, sdk);
      } finally {
        await server.close();
      }
    });
  });
}

describe('pipelined requests on node:http', () => {
  it('answered in turn on a connection kept open, are each logged with their status', async () => {
    const sdk = metricsSdk();
    const server = await loggedServer((stream) =>
      logger(FORMAT, { stream, metrics: { meter: sdk.meter } }),
    );
    try {
      const paths = pathsOf(0);
      const heads = paths.map((path) => rawHead('GET', path, {})).join('');
      // The client stays until long after the lines are awaited: they come with each response.
      const client = sendRaw(server, [heads], { timeoutMs: 3000 });
      const lines = await server.capture.waitFor(paths.length, 1000);
      assert.deepEqual(
        lines,
        paths.map((path) => `GET ${path} 200`),
      );
      await client;
      await delay(20);
      assert.equal(server.capture.lines.length, paths.length, 'logged once');
      const active = sumPoints((await sdk.collect()).get('http.server.active_requests'));
      assert.deepEqual(
        active.map((p) => p.value),
        [0],
      );
    } finally {
      await server.close();
    }
  });

  it('reaching the logger after their connection closed, are each logged once', async () => {
    const sdk = metricsSdk();
    const server = await loggedServer(
      (stream) => logger(FORMAT, { stream, metrics: { meter: sdk.meter } }),
      {
        // A middleware before the logger that takes longer than the client stays.
        before: [(req, _res, next) => afterClientLeft(req, next)],
        handler: (req, res) => afterClientLeft(req, () => res.end('x')),
      },
    );
    try {
      await everyPipelinedRequestEnds(server, server.capture, sdk);
    } finally {
      await server.close();
    }
  });
});

describe('pipelined requests left before their answer, beside morgan', () => {
  it('morgan 1.12.1 logs only the first request of each connection; the logger every one', async () => {
    const morganLines = captureLines();
    const server = await loggedServer((stream) => logger(FORMAT, { stream }), {
      // morgan first, on the same requests: its on-finished waits for the queued response's
      // 'socket' event, which never comes once the connection is gone, on every Node line.
      before: [morgan(FORMAT, { stream: morganLines.stream })],
      handler: (req, res) => afterClientLeft(req, () => res.end('x')),
    });
    try {
      for (let c = 0; c < CONNECTIONS; c++) await pipelineThenLeave(server, pathsOf(c));
      await server.capture.waitFor(CONNECTIONS * PIPELINED);
      await delay(ANSWER_MS * 2);
      assert.deepEqual(
        [...morganLines.lines].sort(),
        Array.from({ length: CONNECTIONS }, (_, c) => `GET /c${c}/p0 -`),
      );
      assert.equal(server.capture.lines.length, CONNECTIONS * PIPELINED);
    } finally {
      await server.close();
    }
  });
});

describe('pipelined requests left before their answer, Koa and Fastify', () => {
  for (const version of koaVersions) {
    it(`Koa (${version}): are each logged once and counted aborted, none left active`, async () => {
      const sdk = metricsSdk();
      const capture = captureLines();
      const server = await serveKoa(version, [
        koa.logger(FORMAT, { stream: capture.stream, metrics: { meter: sdk.meter } }),
        async (ctx) => {
          await clientLeft(ctx.req);
          ctx.body = 'x';
        },
      ]);
      try {
        await everyPipelinedRequestEnds(server, capture, sdk);
      } finally {
        await server.close();
      }
    });
  }

  it('Fastify: are each logged once and counted aborted, none left active', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const server = await startFastify((app: FastifyInstance) => {
      app.register(httpwareLogger, {
        format: FORMAT,
        stream: capture.stream,
        metrics: { meter: sdk.meter },
      });
      app.get('/:c/:p', async (request) => {
        await clientLeft(request.raw);
        return 'x';
      });
    });
    try {
      await everyPipelinedRequestEnds(server, capture, sdk);
    } finally {
      await server.close();
    }
  });
});
