// The `metrics` option on real servers, read through the real OpenTelemetry SDK: what is
// recorded per request, under which attributes, and that it is the line's own measurement.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import KoaRouter from '@koa/router';
import { metrics as metricsApi } from '@opentelemetry/api';
import express5 from 'express';
import express4 from 'express4';
import type { FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { httpwareLogger } from '../../src/fastify/index.js';
import { fetchLogger, koa, logger } from '../../src/index.js';
import { abandon, pipelineThenLeave, send, sendRaw, type Target } from '../helpers/client.js';
import { startFastify } from '../helpers/fastify.js';
import { type FetchAdapter, fetchAdapters, serveFetch } from '../helpers/fetch.js';
import { type KoaMiddleware, koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines, type LineCapture } from '../helpers/lines.js';
import { listen, loggedServer, runFixture } from '../helpers/logger.js';
import {
  attributeValues,
  histogramPoints,
  type MetricsSdk,
  metricsSdk,
  sumPoints,
} from '../helpers/metrics.js';
import { fc, seed } from '../helpers/properties.js';
import type { Handler } from '../helpers/server.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

const DURATION = 'http.server.request.duration';
const ACTIVE = 'http.server.active_requests';

/** `count` requests, `width` at a time. */
async function inParallel(count: number, width: number, one: (n: number) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await one(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** The duration histogram's points, their total count, and the sum of their sums in ms. */
async function durations(sdk: MetricsSdk) {
  const points = histogramPoints((await sdk.collect()).get(DURATION));
  const count = points.reduce((n, p) => n + p.value.count, 0);
  const sumMs = points.reduce((n, p) => n + (p.value.sum ?? 0), 0) * 1000;
  return { points, count, sumMs };
}

/** The active-requests series' values. */
async function activeValues(sdk: MetricsSdk): Promise<number[]> {
  return sumPoints((await sdk.collect()).get(ACTIVE)).map((p) => p.value);
}

/** The sum of lines that are each one `:total-time[9]`. */
function linesSumMs(lines: readonly string[]): number {
  return lines.reduce((n, line) => n + Number(line), 0);
}

/** An Express app with GET /users/:id answering the id. */
async function usersServer(framework: 'express4' | 'express5', sdk: MetricsSdk) {
  const capture = captureLines();
  const app = framework === 'express4' ? express4() : express5();
  app.use(logger(':total-time[9]', { stream: capture.stream, metrics: { meter: sdk.meter } }));
  app.get('/users/:id', (req, res) => {
    res.end(req.params.id);
  });
  const server = await listen(app);
  return Object.assign(server, { capture });
}

for (const framework of ['express4', 'express5'] as const) {
  describe(`metrics on ${framework}`, () => {
    it('gives 1,000 requests to 1,000 ids one series per route and status, timed as the lines', async () => {
      const sdk = metricsSdk();
      const server = await usersServer(framework, sdk);
      try {
        await inParallel(1000, 8, (n) => send(server, { path: `/users/${n}?q=${n}` }));
        const lines = await server.capture.waitFor(1000);
        const { points, count, sumMs } = await durations(sdk);
        assert.equal(points.length, 1);
        assert.equal(points[0]?.attributes['http.route'], '/users/:id');
        assert.equal(points[0]?.attributes['http.response.status_code'], 200);
        assert.equal(count, 1000);
        // Each line has 9 decimals of the very number recorded: the sums agree to rounding.
        assert.ok(Math.abs(sumMs - linesSumMs(lines)) < 1e-5, `${sumMs} vs ${linesSumMs(lines)}`);
        assert.deepEqual(await activeValues(sdk), [0]);
      } finally {
        await server.close();
      }
    });
  });
}

/** A node:http server with the logger (`:total-time[9]`) and metrics through `sdk`. */
function nodeServer(
  sdk: MetricsSdk,
  options: Record<string, unknown> = {},
  handler: Handler = okay,
) {
  return loggedServer(
    (stream) => logger(':total-time[9]', { stream, metrics: { meter: sdk.meter }, ...options }),
    { handler },
  );
}

function okay(_req: IncomingMessage, res: ServerResponse): void {
  res.end('ok');
}

describe('metrics on node:http', () => {
  it('records every request: counts equal the requests, sums the lines', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk);
    try {
      await inParallel(50, 4, (n) => send(server, { path: `/any/${n}` }));
      const lines = await server.capture.waitFor(50);
      const { points, count, sumMs } = await durations(sdk);
      assert.equal(count, 50);
      assert.ok(Math.abs(sumMs - linesSumMs(lines)) < 1e-6);
      // No route is known to node:http: the attribute is absent, never the path.
      assert.equal(points[0]?.attributes['http.route'], undefined);
      assert.deepEqual(Object.keys(points[0]?.attributes ?? {}).sort(), [
        'http.request.method',
        'http.response.status_code',
        'network.protocol.version',
        'url.scheme',
      ]);
    } finally {
      await server.close();
    }
  });

  it("keeps a line's own :total-time when its format asks about another request first", async () => {
    // The line's duration is read once and kept for the line's own request only (lineMs).
    let earlier: [IncomingMessage, ServerResponse] | undefined;
    const server = await loggedServer((stream) =>
      logger(
        (tokens, req, res) => {
          if (earlier !== undefined) tokens['total-time']?.(earlier[0], earlier[1], '9');
          earlier = [req, res];
          return tokens['total-time']?.(req, res, '9');
        },
        { stream },
      ),
    );
    try {
      await send(server);
      await send(server);
      const lines = await server.capture.waitFor(2);
      assert.ok(
        lines.every((line) => /^\d+\.\d{9}$/.test(line)),
        lines.join(),
      );
    } finally {
      await server.close();
    }
  });

  it('records the body sizes of the request and of the response', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {}, (_req, res) => {
      res.write('four');
      res.end('five!');
    });
    try {
      await send(server, { method: 'POST', path: '/', body: 'twelve bytes' });
      await server.capture.waitFor(1);
      const metrics = await sdk.collect();
      const request = histogramPoints(metrics.get('http.server.request.body.size'));
      const response = histogramPoints(metrics.get('http.server.response.body.size'));
      assert.equal(request[0]?.value.sum, 12);
      assert.equal(response[0]?.value.sum, 9);
      assert.equal(metrics.get('http.server.request.body.size')?.descriptor.unit, 'By');
    } finally {
      await server.close();
    }
  });

  it('names a 5xx by its status code, and gives no error.type to a 4xx', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {}, (req, res) => {
      res.statusCode = req.url === '/fail' ? 503 : 404;
      res.end();
    });
    try {
      await send(server, { path: '/fail' });
      await send(server, { path: '/missing' });
      await server.capture.waitFor(2);
      const { points } = await durations(sdk);
      const byStatus = new Map(
        points.map((p) => [p.attributes['http.response.status_code'], p.attributes['error.type']]),
      );
      assert.equal(byStatus.get(503), '503');
      assert.equal(byStatus.get(404), undefined);
      assert.ok(byStatus.has(404));
    } finally {
      await server.close();
    }
  });

  it("names a 5xx by the error recorded for it (logger.recordError's class)", async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {}, (req, res) => {
      logger.recordError(req, new RangeError('out of range'));
      res.statusCode = 500;
      res.end();
    });
    try {
      await send(server);
      await server.capture.waitFor(1);
      const { points } = await durations(sdk);
      assert.equal(points[0]?.attributes['error.type'], 'RangeError');
    } finally {
      await server.close();
    }
  });

  it('counts a request the client left mid-response as request.aborted, with its status', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {}, (_req, res) => {
      res.writeHead(200);
      res.write('part');
    });
    try {
      await abandon(server, { when: 'head' });
      await server.capture.waitFor(1);
      const { points, count } = await durations(sdk);
      assert.equal(count, 1);
      assert.equal(points[0]?.attributes['error.type'], 'request.aborted');
      assert.equal(points[0]?.attributes['http.response.status_code'], 200);
      assert.deepEqual(await activeValues(sdk), [0]);
    } finally {
      await server.close();
    }
  });

  it('counts a request the client left before any answer, timed, without a status', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {}, () => {});
    try {
      await abandon(server, { when: 'body' });
      await server.capture.waitFor(1);
      const { points, count } = await durations(sdk);
      assert.equal(count, 1);
      assert.equal(points[0]?.attributes['error.type'], 'request.aborted');
      assert.equal(points[0]?.attributes['http.response.status_code'], undefined);
      assert.ok((points[0]?.value.sum ?? 0) > 0);
      assert.deepEqual(await activeValues(sdk), [0]);
    } finally {
      await server.close();
    }
  });

  it('counts a request in progress as active until its response is done', async () => {
    const sdk = metricsSdk();
    let answer: (() => void) | undefined;
    const server = await nodeServer(sdk, {}, (_req, res) => {
      answer = () => res.end('late');
    });
    try {
      const reply = send(server);
      while (answer === undefined) await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(await activeValues(sdk), [1]);
      answer();
      await reply;
      await server.capture.waitFor(1);
      assert.deepEqual(await activeValues(sdk), [0]);
    } finally {
      await server.close();
    }
  });

  it('gives url.scheme https over TLS', async () => {
    const sdk = metricsSdk();
    const server = await loggedServer(
      (stream) => logger('tiny', { stream, metrics: { meter: sdk.meter } }),
      { https: true },
    );
    try {
      await send(server);
      await server.capture.waitFor(1);
      const { points } = await durations(sdk);
      assert.equal(points[0]?.attributes['url.scheme'], 'https');
    } finally {
      await server.close();
    }
  });

  it('folds a method it does not know into _OTHER', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk);
    try {
      await send(server, { method: 'PURGE' });
      await send(server, { method: 'PROPFIND' });
      await send(server, { method: 'DELETE' });
      await server.capture.waitFor(3);
      const { points } = await durations(sdk);
      const methods = points.map((p) => p.attributes['http.request.method']).sort();
      assert.deepEqual(methods, ['DELETE', '_OTHER']);
      assert.deepEqual(await activeValues(sdk), [0, 0]);
    } finally {
      await server.close();
    }
  });

  it('counts the requests whose lines skip and sampling leave out', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, {
      skip: (req: { url: string }) => req.url === '/skipped',
      sample: 0,
    });
    try {
      for (const path of ['/skipped', '/sampled-out', '/skipped']) await send(server, { path });
      const { count } = await durations(sdk);
      assert.equal(count, 3);
      assert.equal(server.capture.lines.length, 0);
    } finally {
      await server.close();
    }
  });

  it("leaves out exclude's paths altogether, and counts its statuses' requests", async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk, { exclude: { paths: ['/health'], statuses: [200] } });
    try {
      await send(server, { path: '/health' });
      await send(server, { path: '/counted' });
      const { count, points } = await durations(sdk);
      assert.equal(count, 1);
      assert.equal(points[0]?.attributes['http.response.status_code'], 200);
    } finally {
      await server.close();
    }
  });

  it('puts no path, query or header value in any attribute (property)', async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk);
    const marker = fc.stringMatching(/^[a-z0-9]{6,12}$/).map((s) => `mk${s}`);
    try {
      await fc.assert(
        fc.asyncProperty(marker, marker, marker, async (inPath, inQuery, inHeader) => {
          await send(server, {
            path: `/${inPath}/x?${inQuery}=${inQuery}`,
            headers: {
              'x-forwarded-proto': inHeader,
              'x-forwarded-host': inHeader,
              host: `${inHeader}.test`,
              'user-agent': inHeader,
              'content-type': `text/${inHeader}`,
              referer: `http://${inHeader}/`,
            },
          });
          const values = attributeValues(await sdk.collect());
          for (const value of values) {
            for (const mark of [inPath, inQuery, inHeader]) assert.ok(!value.includes(mark), value);
          }
        }),
        { seed, numRuns: 40 },
      );
    } finally {
      await server.close();
    }
  });
});

/**
 * Sends 30 requests to `prefix/<n>` and checks the option measured them as their lines did:
 * each counted once, the histogram's sum their `:total-time`, none left active.
 */
async function measuredAsLines(
  server: Target,
  sdk: MetricsSdk,
  capture: LineCapture,
  prefix: string,
): Promise<void> {
  await inParallel(30, 3, (n) => send(server, { path: `${prefix}/${n}` }));
  const lines = await capture.waitFor(30);
  const { count, sumMs } = await durations(sdk);
  assert.equal(count, 30);
  assert.ok(Math.abs(sumMs - linesSumMs(lines)) < 1e-6, `${sumMs} vs ${linesSumMs(lines)}`);
  assert.deepEqual(await activeValues(sdk), [0]);
}

describe('metrics on the other doors', () => {
  for (const version of koaVersions) {
    it(`Koa (${version}): counts equal the requests, sums the lines`, async () => {
      const sdk = metricsSdk();
      const capture = captureLines();
      const server = await serveKoa(version, [
        koa.logger(':total-time[9]', { stream: capture.stream, metrics: { meter: sdk.meter } }),
        async (ctx) => {
          ctx.body = 'ok';
        },
      ]);
      try {
        await measuredAsLines(server, sdk, capture, '/k');
      } finally {
        await server.close();
      }
    });
  }

  it('Fastify: counts equal the requests, sums the lines, a 5xx named', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const server = await startFastify((app: FastifyInstance) => {
      app.register(httpwareLogger, {
        format: ':total-time[9]',
        stream: capture.stream,
        metrics: { meter: sdk.meter },
      });
      app.get('/f/:id', async () => 'ok');
      app.get('/boom', async () => {
        throw new Error('boom');
      });
    });
    try {
      await inParallel(30, 3, (n) => send(server, { path: `/f/${n}` }));
      await send(server, { path: '/boom' });
      const lines = await capture.waitFor(31);
      const { count, sumMs, points } = await durations(sdk);
      assert.equal(count, 31);
      assert.ok(Math.abs(sumMs - linesSumMs(lines)) < 1e-6);
      const failed = points.find((p) => p.attributes['http.response.status_code'] === 500);
      assert.equal(failed?.attributes['error.type'], 'Error');
    } finally {
      await server.close();
    }
  });

  it('fetchLogger on Node: counts equal the requests, sums the lines, sizes counted', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const handler = fetchLogger(':total-time[9]', {
      stream: capture.stream,
      metrics: { meter: sdk.meter },
    })(() => new Response('seven b'));
    const server = await serveFetch(handler);
    try {
      await inParallel(30, 3, (n) => send(server, { path: `/w/${n}` }));
      const lines = await capture.waitFor(30);
      const metrics = await sdk.collect();
      const { count, sumMs, points } = await durations(sdk);
      assert.equal(count, 30);
      assert.ok(Math.abs(sumMs - linesSumMs(lines)) < 1e-6);
      assert.equal(points[0]?.attributes['url.scheme'], 'http');
      assert.equal(points[0]?.attributes['http.request.method'], 'GET');
      const sizes = histogramPoints(metrics.get('http.server.response.body.size'));
      assert.equal(sizes[0]?.value.sum, 7 * 30);
      assert.deepEqual(await activeValues(sdk), [0]);
    } finally {
      await server.close();
    }
  });

  it('Hono on Node (log.middleware): counts equal the requests, sums the lines', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const log = fetchLogger(':total-time[9]', {
      stream: capture.stream,
      metrics: { meter: sdk.meter },
    });
    const hono = new Hono();
    hono.use(log.middleware);
    hono.get('/h/:id', (c) => c.text(c.req.param('id')));
    const server = await serveFetch(hono.fetch);
    try {
      await measuredAsLines(server, sdk, capture, '/h');
    } finally {
      await server.close();
    }
  });

  it('fetchLogger: matches methods exactly, as the conventions say (patch is _OTHER)', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const handler = fetchLogger(':method', {
      stream: capture.stream,
      metrics: { meter: sdk.meter },
    })((_request: Request) => new Response(null, { status: 204 }));
    await handler(new Request('http://example.test/', { method: 'patch' }));
    await handler(new Request('http://example.test/', { method: 'PATCH' }));
    await capture.waitFor(2);
    const { points } = await durations(sdk);
    const methods = points.map((p) => p.attributes['http.request.method']).sort();
    assert.deepEqual(methods, ['PATCH', '_OTHER']);
  });

  it('fetchLogger: a handler that throws is a 500 named by its error', async () => {
    const sdk = metricsSdk();
    const capture = captureLines();
    const handler = fetchLogger(':status', {
      stream: capture.stream,
      metrics: { meter: sdk.meter },
    })((_request: Request): Response => {
      throw new TypeError('no');
    });
    try {
      assert.throws(() => handler(new Request('https://example.test/x')), TypeError);
      const { points } = await durations(sdk);
      assert.equal(points[0]?.attributes['http.response.status_code'], 500);
      assert.equal(points[0]?.attributes['error.type'], 'TypeError');
      assert.equal(points[0]?.attributes['url.scheme'], 'https');
    } finally {
      capture.stream.end?.();
    }
  });
});

describe('versions and sizes a client cannot make into series', () => {
  it("a request line claiming a version that is not HTTP's gets no network.protocol.version", async () => {
    const sdk = metricsSdk();
    const server = await nodeServer(sdk);
    try {
      for (const version of ['0.9', '1.0', '1.1']) {
        await sendRaw(server, [`GET /v HTTP/${version}\r\nHost: x\r\nConnection: close\r\n\r\n`]);
      }
      await server.capture.waitFor(3);
      const { points } = await durations(sdk);
      assert.deepEqual(points.map((point) => point.attributes['network.protocol.version']).sort(), [
        '1.0',
        '1.1',
        undefined,
      ]);
    } finally {
      await server.close();
    }
  });

  it('fetchLogger: a Request with a body and no length records no request size; a GET records 0', async () => {
    const sdk = metricsSdk();
    const log = fetchLogger('tiny', {
      stream: captureLines().stream,
      metrics: { meter: sdk.meter },
    });
    const handler = log((_request: Request) => new Response('ok'));
    await (await handler(new Request('http://x/', { method: 'POST', body: 'hello' }))).text();
    await (await handler(new Request('http://x/'))).text();
    const metrics = await sdk.collect();
    const sizes = histogramPoints(metrics.get('http.server.request.body.size'));
    assert.deepEqual(
      sizes.map((point) => [
        point.attributes['http.request.method'],
        point.value.count,
        point.value.sum,
      ]),
      [['GET', 1, 0]],
    );
  });
});

describe('a bound on the routes one logger measures', () => {
  it('past 1,000 distinct routes, a new route is recorded without http.route, with one warning', async () => {
    const sdk = metricsSdk();
    const log = fetchLogger('tiny', {
      stream: captureLines().stream,
      metrics: { meter: sdk.meter },
    });
    const answer = (_request: Request) => new Response('ok');
    for (let n = 0; n < 1005; n++) {
      const handler = log(answer, { route: `/r${n}/:id` });
      await (await handler(new Request(`http://x/r${n}/1`))).text();
    }
    // A route seen before the bound keeps its attribute.
    await (await log(answer, { route: '/r0/:id' })(new Request('http://x/r0/2'))).text();
    const { points } = await durations(sdk);
    const routed = points.filter((point) => point.attributes['http.route'] !== undefined);
    assert.equal(routed.length, 1000);
    assert.equal(routed.find((p) => p.attributes['http.route'] === '/r0/:id')?.value.count, 2);
    const unrouted = points.filter((point) => point.attributes['http.route'] === undefined);
    assert.deepEqual(
      unrouted.map((point) => point.value.count),
      [5],
    );
    assert.equal((await warnings.of('HTTPWARE_LOGGER_METRICS_ROUTES')).length, 1);
  });
});
/**
 * A fetch handler behind `fetchLogger(':method :url :status')` with metrics, on `adapter`, and
 * one client that sends `GET /left` and leaves 10 ms later, before any answer.
 */
async function leftBeforeTheAnswer(
  adapter: FetchAdapter,
  handler: (request: Request) => Promise<Response>,
): Promise<{ lines: string[]; sdk: MetricsSdk }> {
  const sdk = metricsSdk();
  const capture = captureLines();
  const log = fetchLogger(':method :url :status', {
    stream: capture.stream,
    metrics: { meter: sdk.meter },
  });
  const server = await serveFetch(log(handler), adapter);
  try {
    await pipelineThenLeave(server, ['/left']);
    const lines = await capture.waitFor(1);
    return { lines, sdk };
  } finally {
    await server.close();
  }
}

/** Resolves `ms` after the request's signal aborted (the client left). */
function afterLeaving(request: Request, ms: number): Promise<void> {
  return new Promise((resolve) =>
    request.signal.addEventListener('abort', () => setTimeout(resolve, ms), { once: true }),
  );
}

for (const adapter of fetchAdapters) {
  describe(`fetchLogger on Node (${adapter}), a client that leaves before the answer`, () => {
    it('is counted aborted, without a status, timed to its leaving', async () => {
      const LATE_MS = 300;
      let answered = false;
      const { lines, sdk } = await leftBeforeTheAnswer(adapter, async (request) => {
        await afterLeaving(request, LATE_MS);
        answered = true;
        return new Response('late');
      });
      assert.deepEqual(lines, ['GET /left -']);
      assert.equal(answered, false, 'written before the handler answered');
      // The handler's answer, to no one, changes nothing.
      while (!answered) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(lines.length, 1);
      const { points, count } = await durations(sdk);
      assert.equal(count, 1);
      assert.equal(points[0]?.attributes['error.type'], 'request.aborted');
      assert.equal(points[0]?.attributes['http.response.status_code'], undefined);
      assert.ok((points[0]?.value.sum ?? 1) * 1000 < LATE_MS);
      assert.deepEqual(await activeValues(sdk), [0]);
    });

    it('is not counted active for ever when its handler never settles', async () => {
      const { lines, sdk } = await leftBeforeTheAnswer(adapter, () => new Promise(() => {}));
      assert.deepEqual(lines, ['GET /left -']);
      const { points, count } = await durations(sdk);
      assert.equal(count, 1);
      assert.equal(points[0]?.attributes['error.type'], 'request.aborted');
      assert.deepEqual(await activeValues(sdk), [0]);
    });
  });
}

describe('metrics carry the route on every door, with a format that does not read it', () => {
  /** 1,000 requests to /users/<n> on `server`: one series, its route the template. */
  async function oneSeriesOfRoute(server: Target, sdk: MetricsSdk, route: string) {
    await inParallel(1000, 8, (n) => send(server, { path: `/users/${n}` }));
    const { count, points } = await durations(sdk);
    assert.equal(count, 1000);
    assert.deepEqual(
      points.map((point) => point.attributes['http.route']),
      [route],
    );
  }

  for (const version of koaVersions) {
    it(`Koa (${version}) with @koa/router`, async () => {
      const sdk = metricsSdk();
      const router = new KoaRouter();
      router.get('/users/:id', async (ctx) => {
        ctx.body = 'ok';
      });
      const server = await serveKoa(version, [
        koa.logger('tiny', { stream: captureLines().stream, metrics: { meter: sdk.meter } }),
        router.routes() as KoaMiddleware,
      ]);
      try {
        await oneSeriesOfRoute(server, sdk, '/users/:id');
      } finally {
        await server.close();
      }
    });
  }

  it('Fastify', async () => {
    const sdk = metricsSdk();
    const server = await startFastify((app: FastifyInstance) => {
      app.register(httpwareLogger, {
        format: 'tiny',
        stream: captureLines().stream,
        metrics: { meter: sdk.meter },
      });
      app.get('/users/:id', async () => 'ok');
    });
    try {
      await oneSeriesOfRoute(server, sdk, '/users/:id');
    } finally {
      await server.close();
    }
  });

  it('Hono on Node (log.middleware)', async () => {
    const sdk = metricsSdk();
    const log = fetchLogger('tiny', {
      stream: captureLines().stream,
      metrics: { meter: sdk.meter },
    });
    const hono = new Hono();
    hono.use(log.middleware);
    hono.get('/users/:id', (c) => c.text('ok'));
    const server = await serveFetch(hono.fetch);
    try {
      await oneSeriesOfRoute(server, sdk, '/users/:id');
    } finally {
      await server.close();
    }
  });

  it('fetchLogger given the route of its handler', async () => {
    const sdk = metricsSdk();
    const log = fetchLogger('tiny', {
      stream: captureLines().stream,
      metrics: { meter: sdk.meter },
    });
    const server = await serveFetch(log(() => new Response('ok'), { route: '/users/[id]' }));
    try {
      await oneSeriesOfRoute(server, sdk, '/users/[id]');
    } finally {
      await server.close();
    }
  });
});

describe('a meter that throws', () => {
  it('is reported once, and every request is still answered and logged', async () => {
    const fail = () => {
      throw new Error('broken SDK');
    };
    const meter = {
      createHistogram: () => ({ record: fail }),
      createUpDownCounter: () => ({ add: fail }),
    };
    const server = await loggedServer((stream) =>
      logger(':status', { stream, metrics: { meter } }),
    );
    try {
      assert.equal((await send(server)).status, 200);
      assert.equal((await send(server)).status, 200);
      assert.deepEqual(await server.capture.waitFor(2), ['200', '200']);
      assert.equal((await warnings.of('HTTPWARE_LOGGER_METRICS')).length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('metrics: true', () => {
  it('records through the global MeterProvider, registered after the logger was made', async () => {
    const sdk = metricsSdk();
    const server = await loggedServer((stream) => logger('tiny', { stream, metrics: true }));
    try {
      metricsApi.setGlobalMeterProvider(sdk.provider);
      await send(server);
      await send(server);
      await server.capture.waitFor(2);
      const { count } = await durations(sdk);
      assert.equal(count, 2);
    } finally {
      metricsApi.disable();
      await server.close();
    }
  });
});

describe('option metrics at creation', () => {
  const bad: Record<string, unknown> = {
    'a string': 'yes',
    'a number': 1,
    'an object without a meter': {},
    'a meter that is no Meter': { meter: {} },
    'a meter without createUpDownCounter': { meter: { createHistogram() {} } },
  };
  for (const [what, option] of Object.entries(bad)) {
    it(`refuses ${what} with a TypeError`, () => {
      assert.throws(() => logger('tiny', { metrics: option as never }), TypeError);
      assert.throws(() => fetchLogger('tiny', { metrics: option as never }), TypeError);
    });
  }

  it('refuses metrics with immediate: no response would be measured', () => {
    const { meter } = metricsSdk();
    assert.throws(() => logger('tiny', { metrics: { meter }, immediate: true }), /immediate/);
  });

  it('takes false and null as off', () => {
    logger('tiny', { metrics: false });
    logger('tiny', { metrics: null });
  });
});

describe('metrics beside @opentelemetry/instrumentation-http', () => {
  it('records the same name, unit, boundaries and attributes for the same requests', async () => {
    const child = await runFixture('otel/metrics-side-by-side.ts');
    assert.equal(child.code, 0, child.stderr);
    const { theirs, ours } = JSON.parse(child.stdout) as Record<string, Recorded>;
    assert.equal(ours?.unit, theirs?.unit);
    assert.deepEqual(ours?.boundaries, theirs?.boundaries);
    assert.equal(ours?.points.length, 5);
    assert.deepEqual(sortedPoints(ours), sortedPoints(theirs));
  });
});

interface Recorded {
  readonly unit: string;
  readonly boundaries: number[];
  readonly points: Record<string, unknown>[];
}

/** Each point's attributes as sorted entries, the points in one order. */
function sortedPoints(recorded: Recorded | undefined): string[] {
  return (recorded?.points ?? [])
    .map((attributes) => JSON.stringify(Object.entries(attributes).sort()))
    .sort();
}
