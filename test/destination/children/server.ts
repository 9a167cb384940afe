// A server that logs `:url` lines through `destination`, for the tests in this folder, which
// drive it from outside: signals, a stopped reader, renames, broken targets.
//
//   server.ts <target> <options JSON>
//
// target: a file path, or "1" for standard output. Options: `destination`'s own, plus
// `bare` (no httpware at all: how the same process ends without it), `appSignal` (the
// application's own handler for that signal: it closes the server 300 ms later, as a graceful
// shutdown does), `appOnce` (the same, registered with `process.once` before the destination
// is made, as shutdown helpers do), `appReload` (a handler that only says the signal on
// stderr, as a configuration reload does: the process lives on), `signalExit` (signal-exit's
// `onExit`, which says the signal on stderr), `twin` (a second logger with a destination of
// its own on the same target, writing `twin:url` lines) and `secondCopy` (below). It says its port on stderr, as `PORT <n>`.
// Routes: /exit (process.exit(3) in the handler), /throw (an uncaught exception), /reopen
// (`reopen()`), /stats (stats() and memory, after a collection when run with --expose-gc),
// anything else: 200 "ok".
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { onExit } from 'signal-exit';
import { logger } from '../../../src/logger/index.js';

const [target = '', json = '{}'] = process.argv.slice(2);
const { bare, appSignal, appOnce, appReload, signalExit, twin, secondCopy, ...options } =
  JSON.parse(json) as {
    bare?: boolean;
    secondCopy?: string;
    appSignal?: NodeJS.Signals;
    appOnce?: NodeJS.Signals;
    appReload?: NodeJS.Signals;
    signalExit?: boolean;
    twin?: boolean;
    [option: string]: unknown;
  };

/** A graceful shutdown: it answers for a moment more, then closes the server. */
function shutDown(signal: NodeJS.Signals): void {
  process.stderr.write(`APPLICATION ${signal}\n`);
  setTimeout(() => {
    server.closeAllConnections();
    server.close();
  }, 300);
}

if (appOnce) process.once(appOnce, shutDown);
if (signalExit) {
  onExit((_code, signal) => {
    process.stderr.write(`SIGNAL-EXIT ${signal}\n`);
  });
}

const where = /^\d+$/.test(target) ? Number(target) : target;
const destination = bare ? undefined : logger.destination(where, options);
const skip = (req: IncomingMessage) => req.url === '/stats';
const own = destination
  ? logger(':url', { stream: destination, skip })
  : (_req: IncomingMessage, _res: ServerResponse, next: () => void) => next();
const twinLog = twin
  ? logger('twin:url', { stream: logger.destination(where, options), skip })
  : undefined;
const first = twinLog
  ? (req: IncomingMessage, res: ServerResponse, next: () => void) =>
      own(req, res, () => twinLog(req, res, next))
  : own;
// `secondCopy`: the path of a second copy of httpware (a bundle of its own, as a second bundled
// dependency brings), which logs the same requests through its own destination to `<target>.2`.
const second = secondCopy
  ? (createRequire(import.meta.url)(secondCopy) as { logger: typeof logger }).logger
  : undefined;
const secondLog = second?.(':url', { stream: second.destination(`${target}.2`, options) });
const log = secondLog
  ? (req: IncomingMessage, res: ServerResponse, next: () => void) =>
      first(req, res, () => secondLog(req, res, next))
  : first;

function stats(res: ServerResponse): void {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const body = { stats: destination?.stats(), memory: memory.heapUsed + memory.external };
  res.end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  log(req, res, () => {
    if (req.url === '/exit') process.exit(3);
    if (req.url === '/throw') throw new Error('thrown by the application');
    if (req.url === '/reopen') destination?.reopen();
    if (req.url === '/stats') return stats(res);
    res.end('ok');
  });
});

if (appSignal) process.on(appSignal, shutDown);
if (appReload) {
  process.on(appReload, () => {
    process.stderr.write(`APPLICATION RELOAD ${appReload}\n`);
  });
}

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stderr.write(`PORT ${address.port}\n`);
});
