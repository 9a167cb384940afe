// One variant, a fixed number of requests, then exit: what instructions.mjs runs under
// callgrind and allocations.mjs under V8's GC trace. argv: spec (JSON), warm-up requests,
// measured requests, connections (default 1). Lines `measure` and `measured` on stdout mark
// the measured requests.
import http from 'node:http';
import { startClient } from './memory-socket.mjs';
import { loggerRequest, middlewareFor, parserCase, parserRequest } from './variants.mjs';

const spec = JSON.parse(process.argv[2]);
const warmup = Number(process.argv[3]);
const measured = Number(process.argv[4]);
const connections = Number(process.argv[5] ?? 1);
const middleware = await middlewareFor(spec);
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  middleware(req, res, (err) => {
    res.statusCode = err ? (err.status ?? 500) : 200;
    res.end(err ? 'error' : 'ok');
  });
});
server.requestTimeout = 0;
server.headersTimeout = 0;
const request = spec.group === 'logger' ? loggerRequest() : parserRequest(parserCase(spec.kase));

/** `count` requests over `connections` connections; resolves once all are answered. */
const run = (count) =>
  new Promise((resolve) => {
    let sent = connections;
    let open = connections;
    for (let i = 0; i < connections; i++) {
      startClient(
        server,
        request,
        () => sent++ < count,
        () => --open === 0 && resolve(),
      );
    }
  });
await run(warmup);
process.stdout.write('measure\n');
await run(measured);
process.stdout.write('measured\n');
