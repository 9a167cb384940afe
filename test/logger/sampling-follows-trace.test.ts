// `sample` beside OpenTelemetry's own sampling: with the SDK's HTTP instrumentation, every
// request has an active server span, and a success is logged exactly when that span's trace
// was sampled, whatever the SDK's sampler (TraceIdRatioBased alone, or under ParentBased, which
// follows the caller's traceparent), so that lines and sampled traces join one to one. The
// application runs in a child process on the built package (test/logger/fixtures/otel/).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type InstrumentedApp, startInstrumentedApp } from '../helpers/otlp.js';

interface ServerSpan {
  traceId: string;
  traceFlags: number;
  path: string;
}

/** Each request's headers: a third with no traceparent, a third sampled, a third not. */
function headersFor(i: number): Record<string, string> {
  if (i % 3 === 0) return {};
  const flags = i % 3 === 1 ? '01' : '00';
  return {
    traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${flags}`,
  };
}

const REQUESTS = 450;

async function requestMany(app: InstrumentedApp): Promise<void> {
  const width = 25;
  for (let from = 0; from < REQUESTS; from += width) {
    await Promise.all(
      Array.from({ length: Math.min(width, REQUESTS - from) }, async (_, k) => {
        const i = from + k;
        // One failure in 15: always logged, whatever was sampled.
        const path = i % 15 === 7 ? '/fail' : `/r/${i}`;
        const reply = await fetch(app.base + path, { headers: headersFor(i) });
        await reply.arrayBuffer();
      }),
    );
  }
}

async function linesOf(app: InstrumentedApp, count: number): Promise<Record<string, unknown>[]> {
  const read = () =>
    app
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const deadline = Date.now() + 10_000;
  while (read().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Any line beyond the expected ones would be written by now.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return read();
}

const configurations = [
  { sampler: 'ratio:0.3', rate: 0.3, door: 'node' },
  { sampler: 'parent:0.3', rate: 0.3, door: 'node' },
  { sampler: 'ratio:0.3', rate: 0.3, door: 'fetch' },
  // A `sample` rate other than the sampler's decides nothing where there is a span.
  { sampler: 'parent:0.2', rate: 0.6, door: 'fetch' },
] as const;

for (const { sampler, rate, door } of configurations) {
  describe(`sample: ${rate} with the SDK's ${sampler} sampler (${door === 'node' ? 'logger' : 'fetchLogger'})`, () => {
    let app: InstrumentedApp;
    let spans: ServerSpan[];
    let lines: Record<string, unknown>[];

    before(async () => {
      app = await startInstrumentedApp({ sampling: door, rate, sampler });
      await requestMany(app);
      spans = (await (await fetch(`${app.base}/spans`)).json()) as ServerSpan[];
      const failures = Math.ceil((REQUESTS - 7) / 15);
      const sampledSuccesses = spans.filter((span) => span.path !== '/fail').length;
      lines = await linesOf(app, sampledSuccesses + failures);
    });
    after(() => app.stop());

    it('logs a success exactly when its trace was sampled, one line per sampled span', () => {
      const sampled = spans
        .filter((span) => span.path !== '/fail')
        .map((span) => `${span.path} ${span.traceId}`)
        .sort();
      const logged = lines
        .filter((line) => line['http.response.status_code'] === 200)
        .map((line) => `${line['url.path']} ${line.trace_id}`)
        .sort();
      // Neither all nor none: the sampler kept some and dropped some.
      assert.ok(sampled.length > 30 && sampled.length < REQUESTS - 60, `${sampled.length}`);
      assert.deepEqual(logged, sampled);
    });

    it('logs every failure, sampled or not', () => {
      const failures = lines.filter((line) => line['http.response.status_code'] === 500);
      assert.equal(failures.length, Math.ceil((REQUESTS - 7) / 15));
    });

    it('writes its own rate as sampling.rate on the sampled successes', () => {
      const rates = new Set(
        lines
          .filter((line) => line['http.response.status_code'] === 200)
          .map((line) => line['sampling.rate']),
      );
      assert.deepEqual([...rates], [rate]);
    });
  });
}
