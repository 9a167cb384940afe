#!/usr/bin/env node
// Fastify 5's request logging against httpware's plugin, over loopback, side by side in one run:
//
//   npm run build && node bench/fastify.mjs [--rounds=3] [--seconds=3] [--connections=10]
//
// - none: Fastify without a logger (the floor);
// - fastify: `logger: true` (pino) to a discarding stream: its two records per request
//   ("incoming request", "request completed");
// - httpware combined / json: `disableRequestLogging` (through LogController) and
//   `httpwareLogger` writing one line per request to a discarding stream.
// Each variant is its own app on 127.0.0.1 port 0, answering `GET /` with a small JSON body,
// loaded by autocannon in this process. Variants take turns in each round; a figure is the
// median of the rounds' requests per second, and its ratio to the floor. Loopback figures on a
// shared machine move by several per cent between runs: compare ratios within one run.
import { Writable } from 'node:stream';
import autocannon from 'autocannon';
import Fastify, { LogController } from 'fastify';
import { numberOption } from './lib/cli.mjs';
import { httpwareUnderMeasure, medianRates, printRates, SECONDS } from './lib/loopback.mjs';

const CONNECTIONS = numberOption('connections', 10);
const { fastify: plugins } = await httpwareUnderMeasure();
const sink = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
const quiet = () => new LogController({ disableRequestLogging: true });

const variants = {
  none: () => Fastify({ logger: false }),
  fastify: () => Fastify({ logger: { stream: sink() } }),
  'httpware combined': () => {
    const app = Fastify({ logger: { stream: sink() }, logController: quiet() });
    app.register(plugins.httpwareLogger, { format: 'combined', stream: sink() });
    return app;
  },
  'httpware json': () => {
    const app = Fastify({ logger: { stream: sink() }, logController: quiet() });
    app.register(plugins.httpwareLogger, { format: 'json', stream: sink(), requestId: true });
    return app;
  },
};

async function start(make) {
  const app = make();
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

async function load(app) {
  const { port } = app.server.address();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/`,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return result.requests.average;
}

const apps = {};
for (const [name, make] of Object.entries(variants)) apps[name] = await start(make);
const rates = await medianRates(Object.keys(variants), (name) => load(apps[name]));
for (const app of Object.values(apps)) await app.close();
printRates('fastify', `Fastify ${apps.none.version}, GET / with a small JSON body`, rates, [
  'none',
]);
