// One variant of the Web door's logger, a fixed number of requests, then exit: what
// instructions.mjs counts for `impl@web:<format>`. Each request is judge suite E's E3: a fetch
// handler answering `new Response('ok')`, called in process with a fresh GET Request (suite A's
// path and headers), its body read to the end (a line that waits for the delivery is written
// by then). impl: floor (the handler alone), httpware (`fetchLogger(format)` around it),
// baseline (the same from the build at HTTPWARE_BENCH_BASELINE, another commit's
// entries/index.mjs), hono (a Hono app routing to it; the format is not read), hono-logger (the
// same app with hono/logger). No load on the machine moves a count, but the garbage
// collector's work does (most of what a Web Request and Response cost): one build counted
// 192,285 and 223,597 a request in two runs, so compare counts of one run, and time them too
// (../web-e3.mjs).
// argv: spec (JSON), warm-up requests, measured requests.
import { pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { logger as honoLogger } from 'hono/logger';
import { E3_HEADERS as HEADERS, e3Handler as inner, E3_URL as URL_ } from './e3-request.mjs';
import { loadHttpware } from './httpware.mjs';

const spec = JSON.parse(process.argv[2]);
const total = Number(process.argv[3]) + Number(process.argv[4]);
const sink = { write: () => true };

async function handlerFor({ impl, kase: format }) {
  switch (impl) {
    case 'floor':
      return inner;
    case 'httpware':
      return (await loadHttpware()).fetchLogger(format, { stream: sink })(inner);
    case 'baseline': {
      const { fetchLogger } = await import(pathToFileURL(process.env.HTTPWARE_BENCH_BASELINE).href);
      return fetchLogger(format, { stream: sink })(inner);
    }
    case 'hono':
    case 'hono-logger': {
      const app = new Hono();
      if (impl === 'hono-logger') app.use(honoLogger(() => {}));
      app.get('*', inner);
      return (request) => app.fetch(request);
    }
    default:
      throw new Error(`no web variant ${impl}`);
  }
}

const handler = await handlerFor(spec);
for (let i = 0; i < total; i++) {
  const response = await handler(new Request(URL_, { headers: HEADERS }));
  await response.text();
}
