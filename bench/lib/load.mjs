// The load generator, in its own process so that it never shares an event loop with the server
// it measures: runs autocannon on command and reports what it counted.
import autocannon from 'autocannon';

async function run({ url, seconds, connections, method, headers, body, rate }) {
  const t0 = process.hrtime.bigint();
  const result = await autocannon({
    url,
    duration: seconds,
    connections,
    pipelining: 1,
    // autocannon stops only on a sampling tick (1 s by default): tick often so that a short
    // run lasts what it was asked to.
    sampleInt: 100,
    method,
    headers,
    body,
    // `--rate`: this many requests a second over all connections, for every variant alike.
    ...(rate ? { overallRate: rate } : {}),
  });
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  return {
    requests: result.requests.total,
    seconds: elapsed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

process.on('message', (msg) => {
  run(msg).then(
    (result) => process.send({ id: msg.id, ...result }),
    (err) => process.send({ id: msg.id, error: String(err?.stack ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
