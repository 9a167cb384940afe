// The Web door's behaviour suite (test/web/suite.ts) on Bun and Deno, served by the runtime's
// own server: Bun.serve or Deno.serve with the app's fetch handler, then a Hono app on it
// (the logger as `app.use` middleware, and `app.fetch` wrapped whole); then a body read a byte
// at a time (./tiny-chunks.ts), and bodies held in memory against the same bytes streamed
// (./held-bodies.ts).
//
//   bun test/runtimes/web.ts
//   deno run --allow-all --sloppy-imports test/runtimes/web.ts
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { fetchLogger } from 'httpware/logger';
import { createApp } from '../fixtures/web/app.js';
import { createHonoApp } from '../fixtures/web/hono.js';
import { PAGE_404, replaced404App } from '../fixtures/web/replaced-404.js';
import { histogramPoints, metricsSdk, sumPoints } from '../helpers/metrics.js';
import { startBunServe, startDenoServe, type WebServer } from '../helpers/web-servers.js';
import { webChecks } from '../web/suite.js';
import { heldBodyChecks } from './held-bodies.js';
import { type RunnerCheck, runChecks, runtimeName } from './runner.js';
import { tinyChunkChecks } from './tiny-chunks.js';

type Fetch = (request: Request) => Promise<Response>;
const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const serve = runtimeName === 'bun' ? startBunServe : startDenoServe;
const serverName = runtimeName === 'bun' ? 'Bun.serve' : 'Deno.serve';

const hosts: ReadonlyArray<readonly [string, () => Fetch]> = [
  [serverName, () => createApp().fetch],
  [`Hono on ${serverName}, logger as app.use middleware`, () => createHonoApp('middleware').fetch],
  [`Hono on ${serverName}, app.fetch wrapped`, () => createHonoApp('fetch').fetch],
];

const checks: RunnerCheck[] = [];
for (const [host, app] of hosts) {
  let server: WebServer | undefined;
  checks.push({
    name: `${host}: starts`,
    run: async () => {
      server = await serve(app());
    },
  });
  for (const { name, run } of webChecks) {
    checks.push({
      name: `${host}: ${name}`,
      run: async () => {
        if (server === undefined) throw new Error(`${host} did not start`);
        await run(server);
      },
    });
  }
  checks.push({ name: `${host}: stops`, run: async () => server?.close() });
}

// A body the logger watches, dropped by a Hono middleware outside the logger (a custom 404
// page): its line comes within the bound (UNDELIVERED_MS, 2 s), once, on this runtime's timers.
checks.push({
  name: `Hono on ${serverName}, logger inside a middleware that replaces c.res: the 404 is logged`,
  run: async () => {
    const lines: string[] = [];
    const log = fetchLogger(':url :status :res-body-bytes', {
      stream: { write: (line: string) => lines.push(line.trimEnd()) > 0 },
    });
    const app = replaced404App(log, false);
    const server = await serve(async (request) => app.fetch(request));
    try {
      const reply = await fetch(`${server.origin}/.env`);
      if ((await reply.text()) !== PAGE_404) throw new Error('not the custom 404 page');
      const deadline = Date.now() + 4000;
      while (lines.length === 0 && Date.now() < deadline) await sleep(50);
      await sleep(100);
      if (lines.join('|') !== '/.env 404 -') throw new Error(`lines: ${JSON.stringify(lines)}`);
    } finally {
      await server.close();
    }
  },
});

// A Response made from a string keeps the Content-Length the runtime sends for it through
// fetchLogger('json'), which reads the body's size (docs/web.md, "When a Response is wrapped").
checks.push({
  name: `${serverName}: a Response made from a string keeps its Content-Length through fetchLogger('json')`,
  run: async () => {
    const log = fetchLogger('json', { stream: { write: () => true } });
    const server = await serve(async () => new Response('héllo wörld'));
    const logged = await serve(log(async () => new Response('héllo wörld')));
    try {
      for (const { origin } of [server, logged]) {
        const reply = await fetch(`${origin}/`);
        const length = reply.headers.get('content-length');
        if ((await reply.text()) !== 'héllo wörld' || length !== '13') {
          throw new Error(`${origin}: Content-Length ${length}`);
        }
      }
    } finally {
      await server.close();
      await logged.close();
    }
  },
});

// The route (`:route`): the one a handler was wrapped with, and under Hono the route of the
// handler that answered; none for a 404 (test/web/route.test.ts on Node).
checks.push({
  name: `${serverName}: a handler's route and Hono's matched route in :route`,
  run: async () => {
    const lines: string[] = [];
    const log = fetchLogger(':status :route', {
      stream: { write: (line: string) => lines.push(line.trimEnd()) > 0 },
    });
    const hono = new Hono();
    hono.use(log.middleware);
    hono.get('/users/:id', (c) => c.text(c.req.param('id')));
    const handler = await serve(log(async () => new Response('ok'), { route: '/users/[id]' }));
    const app = await serve(async (request) => hono.fetch(request));
    try {
      for (const path of ['/users/1', '/users/2'])
        await (await fetch(handler.origin + path)).text();
      for (const path of ['/users/3', '/nothing']) await (await fetch(app.origin + path)).text();
      const expected = '200 /users/[id]|200 /users/[id]|200 /users/:id|404 -';
      if (lines.join('|') !== expected) throw new Error(`lines: ${JSON.stringify(lines)}`);
    } finally {
      await handler.close();
      await app.close();
    }
  },
});

// The timer that bounds that line does not hold the process open: a process whose only work
// left is that timer ends at once (it would end 2 s later otherwise).
checks.push({
  name: `${runtimeName}: a body's line pending does not keep the process alive`,
  run: async () => {
    const logger = new URL('../../entries/logger.mjs', import.meta.url).href;
    const script = `
      import { fetchLogger } from '${logger}';
      const log = fetchLogger('json', { stream: { write: () => true } });
      await log(() => new Response('never read'))(new Request('http://localhost/'));
      console.log(Date.now());`;
    const args = runtimeName === 'deno' ? ['eval', '--quiet', script] : ['-e', script];
    const { stdout } = await execFileAsync(process.execPath, args);
    const waited = Date.now() - Number(stdout.trim());
    if (!(waited < 1000)) throw new Error(`the process ended ${waited} ms after the Response`);
  },
});

// On Deno, reading `request.signal` of a Deno.serve request prints a warning about Deno 2's
// legacy abort (once per process): httpware must not make an application print it. A fresh
// process, as the warning is printed only once.
checks.push({
  name: 'Deno.serve: reading and logging a body prints nothing to stderr',
  skip: runtimeName === 'deno' ? undefined : 'Deno only',
  run: async () => {
    const entries = new URL('../../entries/', import.meta.url).href;
    const script = `
      import parsers from '${entries}parsers.mjs';
      import { fetchLogger } from '${entries}logger.mjs';
      const log = fetchLogger('json', { stream: { write() {} } });
      const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} },
        log(async (request) => Response.json(await parsers.json.read(request))));
      const reply = await fetch('http://127.0.0.1:' + server.addr.port + '/', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      console.log(await reply.text());
      await server.shutdown();`;
    const deno = (globalThis as unknown as { Deno: DenoForChild }).Deno;
    const output = await new deno.Command(deno.execPath(), {
      args: ['eval', '--quiet', script],
      stdout: 'piped',
      stderr: 'piped',
    }).output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    if (text(output.stdout).trim() !== '{"a":1}' || text(output.stderr) !== '') {
      throw new Error(`stdout ${text(output.stdout)}; stderr ${text(output.stderr)}`);
    }
  },
});

// The `metrics` option on this runtime's own server, read through the real SDK: every request
// counted, the histogram's sum the lines' `:total-time`, no request left active.
checks.push({
  name: `${serverName}: fetchLogger's metrics count every request, timed as its lines`,
  run: async () => {
    const sdk = metricsSdk();
    const lines: string[] = [];
    const log = fetchLogger(':total-time[9]', {
      stream: { write: (line: string) => lines.push(line.trimEnd()) > 0 },
      metrics: { meter: sdk.meter },
    });
    const server = await serve(log(async () => new Response('counted')));
    try {
      for (let n = 0; n < 20; n++) await (await fetch(`${server.origin}/items/${n}`)).text();
      const deadline = Date.now() + 4000;
      while (lines.length < 20 && Date.now() < deadline) await sleep(20);
      const metrics = await sdk.collect();
      const points = histogramPoints(metrics.get('http.server.request.duration'));
      const count = points.reduce((n, p) => n + p.value.count, 0);
      const sumMs = points.reduce((n, p) => n + (p.value.sum ?? 0), 0) * 1000;
      const linesMs = lines.reduce((n, line) => n + Number(line), 0);
      const active = sumPoints(metrics.get('http.server.active_requests')).map((p) => p.value);
      if (count !== 20 || Math.abs(sumMs - linesMs) > 1e-6 || active.join() !== '0') {
        throw new Error(`count ${count}, sum ${sumMs} ms against ${linesMs}, active ${active}`);
      }
      if (points.some((p) => 'http.route' in p.attributes)) throw new Error('a route made up');
    } finally {
      await server.close();
    }
  },
});

// A client that leaves before the handler answers, with `metrics` on: Bun aborts the
// Request's signal then, and the request is counted aborted, without a status, at once. Deno's
// signal is not read (reading it prints a warning), so there the request is counted when the
// handler answers, with the handler's status: the runtime cannot tell the door (docs/metrics.md).
checks.push({
  name: `${serverName}: fetchLogger's metrics of a client that leaves before the answer`,
  run: async () => {
    const sdk = metricsSdk();
    const lines: string[] = [];
    const log = fetchLogger(':method :url :status', {
      stream: { write: (line: string) => lines.push(line.trimEnd()) > 0 },
      metrics: { meter: sdk.meter },
    });
    const late = () => new Promise<Response>((r) => setTimeout(() => r(new Response('late')), 300));
    const server = await serve(log(late));
    try {
      const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /left HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await sleep(20);
      socket.destroy();
      const deadline = Date.now() + 4000;
      while (lines.length < 1 && Date.now() < deadline) await sleep(10);
      const metrics = await sdk.collect();
      const point = histogramPoints(metrics.get('http.server.request.duration'))[0];
      const active = sumPoints(metrics.get('http.server.active_requests')).map((p) => p.value);
      const seen = `lines ${JSON.stringify(lines)}, attributes ${JSON.stringify(point?.attributes)}, sum ${point?.value.sum} s, active ${active}`;
      const expected =
        runtimeName === 'bun'
          ? { line: 'GET /left -', status: undefined, error: 'request.aborted', under: 0.3 }
          : { line: 'GET /left 200', status: 200, error: undefined, under: Infinity };
      if (
        lines.join() !== expected.line ||
        point?.attributes['http.response.status_code'] !== expected.status ||
        point?.attributes['error.type'] !== expected.error ||
        !((point?.value.sum ?? Infinity) < expected.under) ||
        active.join() !== '0'
      ) {
        throw new Error(seen);
      }
    } finally {
      await server.close();
    }
  },
});

checks.push(...tinyChunkChecks, ...heldBodyChecks);

await runChecks('httpware Web suite', checks);

interface DenoForChild {
  execPath(): string;
  Command: new (
    command: string,
    options: { args: string[]; stdout: 'piped'; stderr: 'piped' },
  ) => { output(): Promise<{ stdout: Uint8Array; stderr: Uint8Array }> };
}
