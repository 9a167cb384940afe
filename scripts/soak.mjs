// The soak (`npm run soak`, not part of `npm test`): an example app using the logger and the
// parsers, run in its own process, loaded for a set time with a mix of good and hostile
// requests, then a report: requests, errors by type, RSS and heap at start and end, and log
// lines against requests served.
//
//   node scripts/soak.mjs [--seconds=60] [--connections=32] [--json] [--loop] [--check] [--verbose]
//
// --json prints the report as JSON; --check sends each request of the mix once and prints
// its status (no load); --verbose traces the driver's steps on stderr. The exit code is 1 when
// the server threw, lost a log line or logged a raw control character.
//
// Load comes from autocannon (installed in bench/node_modules) or, with --loop or when it is
// not installed, from a plain node:http keep-alive loop. Beside it, a raw-socket abuser keeps
// clients that abort mid-body, lie in Content-Length and trickle one byte every 200 ms.
// The app imports the built package by name (`httpware`): run `npm run build` first.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);

if (args.server) await runServer(String(args.log));
else await runDriver();

// The app under load, in its own process so its memory is measured alone.
async function runServer(logFile) {
  let httpware;
  try {
    httpware = await import('httpware');
  } catch (err) {
    process.send?.({ kind: 'fatal', message: `cannot load httpware (run npm run build): ${err}` });
    process.exit(1);
  }
  const { logger, parsers } = httpware;
  const stream = createWriteStream(logFile, { flags: 'a' });
  const log = logger('combined', { stream });
  const json = parsers.json();
  const form = parsers.urlencoded({ extended: true });
  const text = parsers.text();
  const raw = parsers.raw({ limit: '1mb' });
  const counts = { received: 0, finished: 0, closedEarly: 0, ok: 0, errors: {} };

  const chain = [log, json, form, text, raw];
  const server = http.createServer((req, res) => {
    counts.received++;
    let finished = false;
    res.on('finish', () => {
      finished = true;
      counts.finished++;
    });
    res.on('close', () => {
      if (!finished) counts.closedEarly++;
    });
    let index = 0;
    const next = (err) => {
      if (err) {
        const type = err.type ?? 'untyped';
        counts.errors[type] = (counts.errors[type] ?? 0) + 1;
        res.statusCode = err.status ?? 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: type }));
        return;
      }
      const mw = chain[index++];
      if (mw) return mw(req, res, next);
      counts.ok++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, kind: typeof req.body }));
    };
    next();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  const memory = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external };
  };
  let uncaught = 0;
  process.on('uncaughtException', (err) => {
    uncaught++;
    process.send?.({ kind: 'uncaught', message: String(err?.stack ?? err) });
  });
  process.on('message', async (message) => {
    if (message === 'snapshot') {
      process.send({ kind: 'snapshot', memory: memory(), counts: structuredClone(counts) });
    } else if (message === 'stop') {
      server.closeAllConnections?.();
      server.close();
      const atEnd = memory();
      globalThis.gc?.();
      const afterGc = memory();
      stream.end(() => {
        process.send(
          {
            kind: 'final',
            memory: atEnd,
            afterGc,
            counts,
            uncaught,
            handles: process.getActiveResourcesInfo(),
          },
          () => process.exit(0),
        );
      });
    }
  });
  process.send({ kind: 'ready', port: server.address().port, memory: memory() });
}

// Good and hostile requests, cycled through by every connection.
function requestMix() {
  const zeros = Buffer.alloc(10 * 1024 * 1024);
  const gzipBomb = zlib.gzipSync(zeros, { level: 9 });
  const brBomb = zlib.brotliCompressSync(zeros, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
  });
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const basic = (user) => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;
  const good = [
    { name: 'json', headers: json, body: JSON.stringify({ user: 'ada', tags: ['a', 'b'], n: 1 }) },
    { name: 'form', headers: form, body: 'user[name]=ada&user[langs][]=js&user[langs][]=ts' },
    { name: 'text', headers: { 'content-type': 'text/plain' }, body: 'hello soak' },
    {
      name: 'raw',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(4096, 7),
    },
    {
      name: 'json-gzip',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: zlib.gzipSync(JSON.stringify({ compressed: true })),
    },
    { name: 'get', method: 'GET', headers: {} },
  ];
  const hostile = [
    { name: 'json-invalid', headers: json, body: '{"unterminated": ' },
    { name: 'json-proto', headers: json, body: '{"__proto__":{"admin":true}}' },
    {
      name: 'json-utf7',
      headers: { 'content-type': 'application/json; charset=utf-7' },
      body: '{"a":"+ADw-script+AD4-"}',
    },
    { name: 'form-deep', headers: form, body: `a${'[b]'.repeat(2000)}=x` },
    { name: 'form-params', headers: form, body: 'a=1&'.repeat(1500) },
    {
      name: 'form-proto',
      headers: form,
      body: '__proto__[admin]=1&constructor[prototype][admin]=1',
    },
    { name: 'gzip-bomb', headers: { ...json, 'content-encoding': 'gzip' }, body: gzipBomb },
    { name: 'br-bomb', headers: { ...json, 'content-encoding': 'br' }, body: brBomb },
    { name: 'bad-encoding', headers: { ...json, 'content-encoding': 'compress' }, body: '{}' },
    {
      name: 'corrupt-gzip',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: 'not gzip at all',
    },
    { name: 'bad-charset', headers: { 'content-type': 'text/plain; charset=klingon' }, body: 'x' },
    { name: 'too-large', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(150 * 1024) },
    {
      name: 'log-forgery',
      method: 'GET',
      headers: {
        'user-agent': 'evil\u0085" "\u009b31m',
        referer: 'x" 200 "y',
        authorization: basic('admin\r\n127.0.0.1 - root [x] "GET /admin HTTP/1.1" 200 -'),
      },
    },
  ];
  return { good, hostile, all: [...good, ...hostile] };
}

// Raw-socket clients autocannon cannot be: aborts, lies and trickles.
function startAbuser(port, stats) {
  let stopped = false;
  const sockets = new Set();
  const open = () => {
    const socket = net.connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    return socket;
  };
  const head = (length, extra = '') =>
    `POST /abuse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
  const abortLoop = setInterval(() => {
    if (stopped) return;
    // Aborts mid-body.
    const a = open();
    a.write(`${head(100)}{"half":`);
    setTimeout(() => a.destroy(), 5);
    stats.aborted++;
    // Lies: longer than sent, then leaves.
    const b = open();
    b.write(`${head(1000)}{"a":1}`);
    setTimeout(() => b.destroy(), 20);
    stats.lying++;
    // Closes right after the headers.
    const c = open();
    c.write(head(10));
    setImmediate(() => c.destroy());
    stats.headersOnly++;
  }, 50);
  // Five trickling clients, one byte every 200 ms, replaced as they finish.
  const trickle = () => {
    if (stopped) return;
    const body = '{"slow":true}';
    const s = open();
    s.write(head(body.length, 'Connection: close\r\n'));
    let i = 0;
    const timer = setInterval(() => {
      if (stopped || s.destroyed || i >= body.length) {
        clearInterval(timer);
        return;
      }
      s.write(body[i++]);
    }, 200);
    s.on('data', () => {
      stats.trickledServed++;
    });
    s.on('close', () => {
      clearInterval(timer);
      trickle();
    });
    stats.trickled++;
  };
  for (let i = 0; i < 5; i++) trickle();
  return () => {
    stopped = true;
    clearInterval(abortLoop);
    for (const s of sockets) s.destroy();
  };
}

async function loadWithAutocannon(autocannon, port, mix, seconds, connections) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: mix.all.map((r) => ({
      method: r.method ?? 'POST',
      path: `/${r.name}`,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    })),
  });
  const byStatus = {};
  for (const [key, value] of Object.entries(result)) {
    const m = /^(\d)xx$/.exec(key);
    if (m && typeof value === 'number') byStatus[key] = value;
  }
  return {
    tool: 'autocannon',
    requests: result.requests.total,
    byStatus,
    clientErrors: result.errors,
    timeouts: result.timeouts,
    latencyP99: result.latency.p99,
  };
}

async function loadWithLoop(port, mix, seconds, connections) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  const byStatus = {};
  const stuckRequests = {};
  let requests = 0;
  let clientErrors = 0;
  const worker = async (offset) => {
    let i = offset;
    while (Date.now() < deadline) {
      const r = mix.all[i++ % mix.all.length];
      await new Promise((resolve) => {
        const stuck = setTimeout(() => {
          stuckRequests[r.name] = (stuckRequests[r.name] ?? 0) + 1;
          req.destroy();
        }, 10_000);
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: r.method ?? 'POST',
            path: `/${r.name}`,
            headers: r.headers,
            agent,
          },
          (res) => {
            const key = `${String(res.statusCode)[0]}xx`;
            byStatus[key] = (byStatus[key] ?? 0) + 1;
            res.resume();
            res.on('end', () => {
              clearTimeout(stuck);
              resolve();
            });
          },
        );
        req.on('error', () => {
          clearTimeout(stuck);
          clientErrors++;
          resolve();
        });
        req.end(r.body);
      });
      requests++;
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  agent.destroy();
  const timeouts = Object.values(stuckRequests).reduce((a, b) => a + b, 0);
  if (timeouts > 0)
    process.stderr.write(`requests with no answer in 10 s: ${JSON.stringify(stuckRequests)}\n`);
  return { tool: 'node:http loop', requests, byStatus, clientErrors, timeouts };
}

async function runDriver() {
  const seconds = Number(args.seconds ?? 60);
  const connections = Number(args.connections ?? 32);
  const dir = mkdtempSync(join(tmpdir(), 'httpware-soak-'));
  const logFile = join(dir, 'access.log');
  const child = fork(fileURLToPath(import.meta.url), ['--server', `--log=${logFile}`], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages = [];
  const waiting = [];
  child.on('message', (m) => {
    if (args.verbose) process.stderr.write(`message ${m.kind}\n`);
    if (m.kind === 'uncaught') process.stderr.write(`server uncaught exception: ${m.message}\n`);
    if (m.kind === 'fatal') {
      process.stderr.write(`${m.message}\n`);
      process.exit(1);
    }
    const w = waiting.findIndex((x) => x.kind === m.kind);
    if (w >= 0) waiting.splice(w, 1)[0].resolve(m);
    else messages.push(m);
  });
  const receive = (kind) => {
    const i = messages.findIndex((m) => m.kind === kind);
    if (i >= 0) return Promise.resolve(messages.splice(i, 1)[0]);
    return new Promise((resolve) => waiting.push({ kind, resolve }));
  };
  const { port } = await receive('ready');
  if (args.verbose) process.stderr.write(`server ready on ${port}\n`);

  const mix = requestMix();
  if (args.verbose) process.stderr.write('mix ready\n');
  let autocannon;
  if (!args.loop) {
    try {
      const bench = createRequire(new URL('../bench/package.json', import.meta.url));
      autocannon = bench('autocannon');
    } catch {
      process.stderr.write('autocannon not found in bench/node_modules: using a node:http loop\n');
    }
  }

  if (args.check) {
    // One of each request, to see what the mix gets before loading with it.
    for (const r of mix.all) {
      const status = await new Promise((resolve) => {
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: r.method ?? 'POST',
            path: `/${r.name}`,
            headers: r.headers,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          },
        );
        req.setTimeout(5000, () => {
          req.destroy();
          resolve('no answer in 5 s');
        });
        req.on('error', (err) => resolve(err.code));
        req.end(r.body);
      });
      console.log(`${r.name.padEnd(14)} ${status}`);
    }
    child.kill();
    return;
  }

  // A short warm-up, so "start" is the steady state, not the cold process.
  const warm = autocannon
    ? await loadWithAutocannon(autocannon, port, mix, 2, connections)
    : await loadWithLoop(port, mix, 2, connections);
  if (args.verbose) process.stderr.write('warm-up done\n');
  child.send('snapshot');
  const start = await receive('snapshot');

  const abuse = { aborted: 0, lying: 0, headersOnly: 0, trickled: 0, trickledServed: 0 };
  const stopAbuser = startAbuser(port, abuse);
  const load = autocannon
    ? await loadWithAutocannon(autocannon, port, mix, seconds, connections)
    : await loadWithLoop(port, mix, seconds, connections);
  stopAbuser();
  await new Promise((r) => setTimeout(r, 300));
  child.send('stop');
  const final = await receive('final');
  await once(child, 'exit').catch(() => {});
  child.kill();

  const lines = readFileSync(logFile, 'utf8').split('\n');
  lines.pop();
  const unsafe = lines.filter((l) => /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(l)).length;
  rmSync(dir, { recursive: true, force: true });

  const counts = final.counts;
  const measured = {
    received: counts.received - start.counts.received,
    errors: Object.fromEntries(
      Object.entries(counts.errors).map(([k, v]) => [k, v - (start.counts.errors[k] ?? 0)]),
    ),
  };
  const report = {
    seconds,
    connections,
    tool: load.tool,
    warmupRequests: warm.requests,
    load: {
      requests: load.requests,
      byStatus: load.byStatus,
      clientErrors: load.clientErrors,
      timeouts: load.timeouts,
    },
    abuse,
    server: {
      requestsReceived: counts.received,
      requestsReceivedDuringSoak: measured.received,
      responsesFinished: counts.finished,
      closedBeforeResponse: counts.closedEarly,
      parsedOk: counts.ok,
      errorsByType: counts.errors,
      errorsByTypeDuringSoak: measured.errors,
      uncaughtExceptions: final.uncaught,
      handlesAtEnd: final.handles,
    },
    memory: {
      start: start.memory,
      end: final.memory,
      endAfterGc: final.afterGc,
    },
    log: {
      lines: lines.length,
      requestsServed: counts.received,
      missing: counts.received - lines.length,
      linesWithRawControl: unsafe,
    },
  };

  if (args.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const out = [
      `soak: ${seconds}s, ${connections} connections, ${load.tool}`,
      `requests (load tool): ${load.requests} ${JSON.stringify(load.byStatus)}; client errors ${load.clientErrors}, timeouts ${load.timeouts}`,
      `abusive clients: ${JSON.stringify(abuse)}`,
      `requests received by the server: ${counts.received} (finished ${counts.finished}, closed before a response ${counts.closedEarly}, parsed ok ${counts.ok})`,
      'errors by type (whole run):',
      ...Object.entries(counts.errors)
        .sort((a, b) => b[1] - a[1])
        .map(([type, n]) => `  ${type.padEnd(30)} ${n}`),
      `uncaught exceptions: ${final.uncaught}`,
      `RSS   start ${mb(start.memory.rss)}  end ${mb(final.memory.rss)}  end after gc ${mb(final.afterGc.rss)}`,
      `heap  start ${mb(start.memory.heapUsed)}  end ${mb(final.memory.heapUsed)}  end after gc ${mb(final.afterGc.heapUsed)}`,
      `log lines ${lines.length} for ${counts.received} requests served (${counts.received - lines.length} missing, ${unsafe} with a raw control character)`,
    ];
    console.log(out.join('\n'));
  }
  const healthy = final.uncaught === 0 && lines.length === counts.received && unsafe === 0;
  process.exitCode = healthy ? 0 : 1;
}
