// One variant, a fixed number of requests, then exit: what instructions.mjs runs under
// callgrind. argv: spec (JSON), warm-up requests, measured requests.
import http from 'node:http';
import { startClient } from './memory-socket.mjs';
import { loggerRequest, middlewareFor, parserCase, parserRequest } from './variants.mjs';

const spec = JSON.parse(process.argv[2]);
const warmup = Number(process.argv[3]);
const measured = Number(process.argv[4]);
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

/** `count` requests on one connection; resolves once all are answered. */
const run = (count) =>
  new Promise((resolve) => {
    let sent = 1;
    startClient(server, request, () => sent++ < count, resolve);
  });
await run(warmup + measured);
