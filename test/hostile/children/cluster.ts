// Run by logger-load.test.ts: four cluster workers log to one file in append mode while the
// primary sends requests; the primary then reports what the file holds.
// Usage: cluster.ts <file> <requests>
import cluster from 'node:cluster';
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import { loadSubject } from '../../helpers/hostile.js';

const file = process.argv[2] ?? '';
const requests = Number(process.argv[3] ?? 10_000);
const WORKERS = 4;

if (cluster.isPrimary) {
  const workers = Array.from({ length: WORKERS }, () => cluster.fork());
  const ports = await Promise.all(
    workers.map(
      (w) =>
        new Promise<number>((resolve) =>
          w.once('listening', (address: { port: number }) => resolve(address.port)),
        ),
    ),
  );
  const port = ports[0]!;
  // A new connection per request batch spreads requests over the workers (cluster hands out
  // connections, not requests), so every worker writes many lines.
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 32,
    maxRequestsPerSocket: 25,
  } as http.AgentOptions);
  let next = 0;
  let served = 0;
  const worker = async () => {
    while (next < requests) {
      const id = next++;
      await new Promise<void>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', path: `/req/${id}`, agent }, (res) => {
            res.resume();
            res.on('end', () => {
              served++;
              resolve();
            });
          })
          .on('error', reject);
      });
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 32 }, worker));
  const ms = Date.now() - started;
  agent.destroy();
  // Each worker closes its stream (flushing every line) and exits.
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          w.send('finish');
        }),
    ),
  );
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const trailing = lines.pop();
  const pattern = /^(\d+) GET \/req\/(\d+) 200 x{200}$/;
  const ids = new Set<number>();
  const pids = new Set<string>();
  let torn = 0;
  for (const line of lines) {
    const m = pattern.exec(line);
    if (!m) {
      torn++;
      continue;
    }
    pids.add(m[1]!);
    ids.add(Number(m[2]));
  }
  console.log(
    JSON.stringify({
      served,
      ms,
      lines: lines.length,
      unique: ids.size,
      torn,
      trailing,
      pids: pids.size,
    }),
  );
} else {
  const { logger } = await loadSubject();
  const stream = createWriteStream(file, { flags: 'a' });
  // A long fixed field makes each line 230-odd bytes, so torn or interleaved writes show.
  logger.token('pad', () => 'x'.repeat(200));
  const log = logger(':pid :method :url :status :pad', { stream });
  const server = http.createServer((req, res) => log(req, res, () => res.end('ok')));
  server.listen(0, '127.0.0.1');
  process.on('message', (message) => {
    if (message !== 'finish') return;
    server.close();
    stream.end(() => process.exit(0));
  });
}
