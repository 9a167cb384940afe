// One variant in one process. Started by the scheduler with a JSON spec as argv[2]; answers
// its commands over IPC. `inproc` workers drive a real http.Server through in-memory keep-alive
// connections; `loopback` workers listen on 127.0.0.1 for autocannon.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector';
import { startClient } from './memory-socket.mjs';
import { parserAlone } from './parser-alone.mjs';
import {
  discard,
  expectedBody,
  logFile,
  loggerRequest,
  middlewareFor,
  parserCase,
  parserRequest,
} from './variants.mjs';

const spec = JSON.parse(process.argv[2]);
const middleware = await middlewareFor(spec);

let errors = 0;
let lastError = '';
let capture = null;

function finalHandler(req, res, err) {
  if (err) {
    errors++;
    lastError = `${err.status ?? 500} ${err.type ?? ''} ${err.message}`;
    res.statusCode = err.status ?? 500;
    res.end('error');
    return;
  }
  if (capture) {
    capture(req.body);
    capture = null;
  }
  res.end('ok');
}

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  middleware(req, res, (err) => finalHandler(req, res, err));
});
server.requestTimeout = 0;
server.headersTimeout = 0;

const request = spec.group === 'logger' ? loggerRequest() : parserRequest(parserCase(spec.kase));
const connections = spec.connections ?? (spec.kase && parserCase(spec.kase).connections) ?? 8;

// The parser alone (`spec.alone`, lib/parser-alone.mjs): no server, one request at a time.
let bodySeen = (_body) => {};
const alone = spec.alone
  ? parserAlone(middleware, parserCase(spec.kase), (body) => bodySeen(body))
  : null;

function runAloneBatch(ms) {
  return new Promise((resolve) => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const deadline = t0 + BigInt(Math.round(ms * 1e6));
    alone(
      () => process.hrtime.bigint() < deadline,
      (requests, err) => {
        const ns = Number(process.hrtime.bigint() - t0);
        const cpu = process.cpuUsage(cpu0);
        if (err) lastError = `${err.status ?? 500} ${err.type ?? ''} ${err.message}`;
        const failed = err ? 1 : 0;
        resolve({ requests, ns, cpuNs: (cpu.user + cpu.system) * 1000, errors: failed, lastError });
      },
    );
  });
}

function runBatch(ms) {
  if (alone) return runAloneBatch(ms);
  return new Promise((resolve) => {
    errors = 0;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const deadline = t0 + BigInt(Math.round(ms * 1e6));
    let open = connections;
    let requests = 0;
    const keepGoing = () => process.hrtime.bigint() < deadline;
    for (let i = 0; i < connections; i++) {
      startClient(server, request, keepGoing, (n) => {
        requests += n;
        if (--open === 0) {
          const ns = Number(process.hrtime.bigint() - t0);
          const cpu = process.cpuUsage(cpu0);
          resolve({ requests, ns, cpuNs: (cpu.user + cpu.system) * 1000, errors, lastError });
        }
      });
    }
  });
}

// Until the JIT has settled. The budget is CPU time, not wall-clock time: on a busy machine
// a second of wall-clock may buy a process a tenth of a second of work, and a cold process
// runs up to twenty times slower. At least minCpuMs of CPU, then until the last three 100 ms
// batches agree within 10 % (in CPU time per request), at most maxMs of wall-clock.
async function warmup(minCpuMs, maxMs) {
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const recent = [];
  for (;;) {
    const r = await runBatch(100);
    recent.push(r.cpuNs / r.requests);
    if (recent.length > 3) recent.shift();
    const { user, system } = process.cpuUsage(cpu0);
    const cpuMs = (user + system) / 1000;
    const elapsed = Date.now() - t0;
    const settled = recent.length === 3 && Math.max(...recent) <= Math.min(...recent) * 1.1;
    if (elapsed >= maxMs || (cpuMs >= minCpuMs && settled)) {
      return { elapsed, cpuMs, settled, ns: recent.at(-1) };
    }
  }
}

// A CPU profile of one timed batch only (no start-up, no warm-up), for profile.mjs.
async function profile(ms, file) {
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  const result = await runBatch(ms);
  const { profile: data } = await post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(data));
  return result;
}

function sameBody(actual, expected) {
  if (Buffer.isBuffer(expected)) return Buffer.isBuffer(actual) && actual.equals(expected);
  return JSON.stringify(actual) === JSON.stringify(expected);
}

// The URL as one piece (text formats, pino-http), or its path and query as two JSON fields.
const namesRequest = (line) =>
  line.includes('/api/items/42?sort=desc&page=3') ||
  (line.includes('"/api/items/42"') && line.includes('"sort=desc&page=3"'));

// One request whose req.body is compared with what the case must produce: a harness that
// measured a parser failing fast would flatter it.
/** The last line of a file-logging variant, once its lines are flushed. */
async function lastFileLine() {
  await logFile.flush();
  const lines = readFileSync(logFile.path, 'utf8').trimEnd().split('\n');
  return { count: lines.length, last: `${lines.at(-1)}\n` };
}

/** The check of one request's logging: one line, naming the request and its 200. */
function judgeLine(count, line) {
  if (count !== 1) return { ok: false, detail: `${count} lines for one request` };
  if (!namesRequest(line) || !line.includes('200')) {
    return { ok: false, detail: `unexpected line: ${line.slice(0, 120)}` };
  }
  return { ok: true, lineBytes: Buffer.byteLength(line) };
}

function checkLogger() {
  if (spec.impl === 'floor' || spec.impl === 'floor-span') return Promise.resolve({ ok: true });
  if (spec.impl.endsWith('-file')) return checkFileLogger();
  const before = discard.lines;
  return new Promise((resolve) => {
    startClient(
      server,
      request,
      () => false,
      // The line is written when the response finishes: give it a turn of the event loop.
      () => setTimeout(() => resolve(judgeLine(discard.lines - before, String(discard.last))), 20),
    );
  });
}

function checkFileLogger() {
  return new Promise((resolve) => {
    startClient(
      server,
      request,
      () => false,
      () =>
        setTimeout(async () => {
          const { count, last } = await lastFileLine();
          resolve(judgeLine(count, last));
        }, 20),
    );
  });
}

function check() {
  if (spec.group === 'logger') return checkLogger();
  if (spec.impl === 'bare') return Promise.resolve({ ok: true });
  const expected = expectedBody(parserCase(spec.kase));
  if (alone) {
    return new Promise((resolve) => {
      let body;
      bodySeen = (b) => {
        body = b;
      };
      alone(
        () => false,
        (_n, err) => {
          bodySeen = () => {};
          if (err) resolve({ ok: false, detail: `${err.status ?? 500} ${err.message}` });
          else if (!sameBody(body, expected))
            resolve({
              ok: false,
              detail: `req.body differs: ${String(JSON.stringify(body)).slice(0, 120)}`,
            });
          else resolve({ ok: true });
        },
      );
    });
  }
  return new Promise((resolve) => {
    let body;
    capture = (b) => {
      body = b;
    };
    startClient(
      server,
      request,
      () => false,
      () => {
        if (errors) resolve({ ok: false, detail: lastError });
        else if (!sameBody(body, expected))
          resolve({
            ok: false,
            detail: `req.body differs: ${String(JSON.stringify(body)).slice(0, 120)}`,
          });
        else resolve({ ok: true });
      },
    );
  });
}

const baselineRss = process.memoryUsage().rss;

async function handle(msg) {
  switch (msg.cmd) {
    case 'batch':
      return runBatch(msg.ms);
    case 'warmup':
      return warmup(msg.minMs, msg.maxMs);
    case 'check':
      return check();
    case 'profile':
      return profile(msg.ms, msg.file);
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return { cpuNs: (user + system) * 1000, errors };
    }
    case 'memory':
      return { maxRss: process.resourceUsage().maxRSS * 1024, baselineRss };
    case 'exit':
      setImmediate(() => process.exit(0));
      return {};
    default:
      throw new Error(`unknown command ${msg.cmd}`);
  }
}

process.on('message', (msg) => {
  handle(msg).then(
    (result) => process.send({ id: msg.id, ...result }),
    (err) => process.send({ id: msg.id, error: String(err?.stack ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));

if (spec.mode === 'loopback') {
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port }));
} else {
  process.send({ ready: true });
}
