#!/usr/bin/env node
// Koa side by side over loopback, in one run:
//
//   node bench/koa.mjs [--rounds=N] [--seconds=N]
//
// Four Koa 3 servers answering 1 KB JSON POSTs (autocannon, 50 keep-alive connections, in its
// own process so it never shares the server's event loop): Koa alone, not reading the body
// (the floor); koa-logger + @koa/bodyparser; httpware/koa's logger ('dev', the kind of line
// koa-logger writes, and 'combined') + its json parser. Every logger writes to a discarding
// sink: koa-logger through its `transporter`, httpware through `stream`. Variants take turns
// in each round (lib/loopback.mjs); a figure is the median of the rounds' requests per second.
// Tables on stdout; the last line is a JSON summary.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import koaLogger from 'koa-logger';
import { httpwareUnderMeasure, medianRates, printRates, SECONDS } from './lib/loopback.mjs';

const { koa } = await httpwareUnderMeasure();

const sink = { write: () => true };
const answer = async (ctx) => {
  ctx.body = { keys: Object.keys(ctx.request.body ?? {}).length };
};

const variants = {
  'koa alone': (app) =>
    app.use(async (ctx) => {
      ctx.body = { keys: 0 };
    }),
  'koa-logger + @koa/bodyparser': (app) =>
    app
      .use(koaLogger(() => {}))
      .use(bodyParser())
      .use(answer),
  'httpware/koa dev + json': (app) =>
    app
      .use(koa.logger('dev', { stream: sink }))
      .use(koa.json())
      .use(answer),
  'httpware/koa combined + json': (app) =>
    app
      .use(koa.logger('combined', { stream: sink }))
      .use(koa.json())
      .use(answer),
};

const body = JSON.stringify({
  items: Array.from({ length: 12 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'] })),
  note: 'x'.repeat(300),
});

const loader = fork(new URL('lib/load.mjs', import.meta.url));
await once(loader, 'message');
let asked = 0;
function load(url) {
  const id = ++asked;
  loader.send({
    id,
    url,
    seconds: SECONDS,
    connections: 50,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return new Promise((resolve, reject) => {
    const onMessage = (msg) => {
      if (msg.id !== id) return;
      loader.off('message', onMessage);
      if (msg.error) reject(new Error(msg.error));
      else resolve(msg);
    };
    loader.on('message', onMessage);
  });
}

async function measure(name) {
  const app = new Koa();
  app.silent = true;
  variants[name](app);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const result = await load(`http://127.0.0.1:${server.address().port}/`);
    if (result.non2xx || result.errors) throw new Error(`${name}: ${JSON.stringify(result)}`);
    return result.requests / result.seconds;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const rates = await medianRates(Object.keys(variants), measure, { warmUp: true });
loader.disconnect();
printRates('koa', 'Koa 3, 1 KB JSON POSTs', rates, ['koa alone', 'koa-logger + @koa/bodyparser']);
