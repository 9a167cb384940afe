// The server of destination-reference.mjs: `:url`-bearing lines of every request through one
// of the destinations compared (argv: impl, target), and GET /stats for its memory.
//   httpware      logger('combined', { stream: logger.destination(target) })
//   pino-sync     pino-http to pino.destination(target): pino's default, synchronous
//   pino-async    pino-http to pino.destination({ dest: target, sync: false })
const http = require('node:http');

const [impl, given] = process.argv.slice(2);
const target = /^\d+$/.test(given) ? Number(given) : given;

function middleware() {
  if (impl === 'httpware') {
    const { logger } = require('../../dist/index.cjs');
    return logger('combined', {
      stream: logger.destination(target),
      skip: (req) => req.url === '/stats',
    });
  }
  const pino = require('pino');
  const dest = pino.destination({ dest: target, sync: impl === 'pino-sync' });
  const log = require('pino-http')({
    logger: pino({}, dest),
    autoLogging: { ignore: (req) => req.url === '/stats' },
  });
  return (req, res, next) => {
    log(req, res);
    next();
  };
}

const log = middleware();
const server = http.createServer((req, res) =>
  log(req, res, () => {
    if (req.url !== '/stats') return res.end('ok');
    globalThis.gc?.();
    const memory = process.memoryUsage();
    res.end(JSON.stringify({ memory: memory.heapUsed + memory.external }));
  }),
);
server.listen(0, '127.0.0.1', () => process.stderr.write(`PORT ${server.address().port}\n`));
