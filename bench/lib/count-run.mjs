// One variant, a fixed number of requests, then exit: what instructions.mjs runs under
// callgrind and allocations.mjs under V8's GC trace. argv: spec (JSON), warm-up requests,
// measured requests, and for allocations.mjs a connection count: the measured requests then
// run on fresh connections after the warm-up, between lines `measure` and `measured` on
// stdout. Without it, every request runs on one connection, as instructions.mjs has always
// counted them (a split run counted 119,180 instructions per request for the floor where the
// single run had counted 68,633, not yet explained: keep its figures comparable).
import { fork } from 'node:child_process';
import http from 'node:http';
import { startClient } from './memory-socket.mjs';
import { parserAlone } from './parser-alone.mjs';
import { loggerRequest, middlewareFor, parserCase, parserRequest } from './variants.mjs';

const spec = JSON.parse(process.argv[2]);
const warmup = Number(process.argv[3]);
const measured = Number(process.argv[4]);
const split = process.argv[5] !== undefined;
const connections = split ? Number(process.argv[5]) : 1;
const middleware = await middlewareFor(spec);
// `spec.response`: 'chunked' answers with three writes then `end()` (a body sent without a
// length, chunked); by default the body is given whole to `end`, which node:http announces
// with a Content-Length.
const chunked = spec.response === 'chunked';
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  middleware(req, res, (err) => {
    res.statusCode = err ? (err.status ?? 500) : 200;
    if (chunked && !err) {
      res.write('ok');
      res.write('ok');
      res.write('ok');
      res.end();
    } else {
      res.end(err ? 'error' : 'ok');
    }
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
        chunked,
      );
    }
  });
if (spec.tcp) {
  // Over real loopback TCP, the client in another process (instructions.mjs --tcp): the
  // server's count then includes what node:http does with a socket, as the judging bench's
  // loopback suite measures (its CPU, which also holds the kernel's share a count leaves out).
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = fork(
    new URL('tcp-client.mjs', import.meta.url),
    [String(server.address().port), String(warmup + measured)],
    { execArgv: [] },
  );
  client.send((Array.isArray(request) ? Buffer.concat(request) : request).toString('base64'));
  const code = await new Promise((resolve) => client.on('exit', resolve));
  server.close();
  if (code !== 0) throw new Error(`the TCP client failed (exit code ${code})`);
} else if (spec.alone) {
  // The parser alone (lib/parser-alone.mjs): one request at a time, no server.
  const start = parserAlone(middleware, parserCase(spec.kase));
  let left = warmup + measured;
  await new Promise((resolve, reject) =>
    start(
      () => --left > 0,
      (_n, err) => (err ? reject(err) : resolve()),
    ),
  );
} else if (split) {
  await run(warmup);
  process.stdout.write('measure\n');
  await run(measured);
  process.stdout.write('measured\n');
} else {
  await run(warmup + measured);
}
