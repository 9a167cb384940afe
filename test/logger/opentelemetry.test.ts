// OpenTelemetry, end to end, as production runs it: an application started with the SDK and the
// HTTP instrumentation loaded before it (`--require`), its `json` lines and its log records
// (exported over OTLP/HTTP to a receiver the test runs) joined to the server spans.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type InstrumentedApp,
  type OtlpReceiver,
  startInstrumentedApp,
  startOtlpReceiver,
} from '../helpers/otlp.js';

interface ServerSpan {
  traceId: string;
  spanId: string;
  traceFlags: number;
  parentSpanId: string | undefined;
  path: string;
}

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

async function get(app: InstrumentedApp, path: string, headers: Record<string, string> = {}) {
  const reply = await fetch(app.base + path, { headers });
  await reply.text();
}

async function spansOf(app: InstrumentedApp): Promise<Map<string, ServerSpan>> {
  const reply = await fetch(`${app.base}/spans`);
  const spans = (await reply.json()) as ServerSpan[];
  return new Map(spans.map((span) => [span.path, span]));
}

async function linesOf(app: InstrumentedApp, count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 10_000;
  while (app.stdout().split('\n').filter(Boolean).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return app
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

for (const framework of ['http', 'express'] as const) {
  describe(`OpenTelemetry SDK and HTTP instrumentation, ${framework === 'http' ? 'node:http' : 'Express 5'}`, () => {
    let receiver: OtlpReceiver;
    let app: InstrumentedApp;
    let spans: Map<string, ServerSpan>;
    let lines: Record<string, unknown>[];

    before(async () => {
      receiver = await startOtlpReceiver();
      app = await startInstrumentedApp({ framework, mode: 'both', otlpUrl: receiver.url });
      await get(app, '/users/1');
      await get(app, '/missing');
      await get(app, '/fail');
      await get(app, '/called', { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
      spans = await spansOf(app);
      lines = await linesOf(app, 4);
      await receiver.waitFor(4);
    });
    after(async () => {
      await app.stop();
      await receiver.close();
    });

    test('each json line carries the trace id, span id and flags of its server span', () => {
      assert.equal(lines.length, 4);
      for (const line of lines) {
        const span = spans.get(line['url.path'] as string);
        assert.ok(span, `a server span for ${line['url.path']}`);
        assert.equal(line.trace_id, span.traceId);
        assert.equal(line.span_id, span.spanId);
        assert.equal(line.trace_flags, '01');
      }
    });

    test("a request in a caller's trace logs the caller's trace id and its own span id, never the caller's", () => {
      const line = lines.find((l) => l['url.path'] === '/called');
      assert.equal(line?.trace_id, CALLER_TRACE);
      assert.equal(spans.get('/called')?.parentSpanId, CALLER_SPAN);
      assert.equal(line?.span_id, spans.get('/called')?.spanId);
      assert.notEqual(line?.span_id, CALLER_SPAN);
    });

    test('each record carries the trace id and span id of its server span', () => {
      for (const record of receiver.records) {
        const span = spans.get(record.attributes['url.path'] as string);
        assert.ok(span, `a server span for ${record.attributes['url.path']}`);
        assert.equal(record.traceId, span.traceId);
        assert.equal(record.spanId, span.spanId);
        assert.equal(record.flags, 1);
      }
    });

    test("a record's body is its line's message and its attributes the line's fields", () => {
      for (const record of receiver.records) {
        const line = lines.find((l) => l['url.path'] === record.attributes['url.path']);
        assert.ok(line);
        assert.equal(record.body, line.msg);
        assert.equal(record.scope, 'httpware');
        const expected = Object.fromEntries(
          Object.entries(line).filter(
            ([key]) =>
              !['time', 'level', 'msg', 'trace_id', 'span_id', 'trace_flags'].includes(key),
          ),
        );
        assert.deepEqual(record.attributes, expected);
      }
    });

    test('the severity follows the status: 5xx ERROR, 4xx WARN, else INFO', () => {
      const severity = (path: string) => {
        const record = receiver.records.find((r) => r.attributes['url.path'] === path);
        return [record?.severityNumber, record?.severityText];
      };
      assert.deepEqual(severity('/users/1'), [9, 'INFO']);
      assert.deepEqual(severity('/missing'), [13, 'WARN']);
      assert.deepEqual(severity('/fail'), [17, 'ERROR']);
    });

    test("a record's timestamp is its line's time", () => {
      for (const record of receiver.records) {
        const line = lines.find((l) => l['url.path'] === record.attributes['url.path']);
        const recordMs = Number(BigInt(record.timeUnixNano) / 1_000_000n);
        assert.ok(
          Math.abs(recordMs - Date.parse(line?.time as string)) <= 5,
          `${recordMs} vs ${line?.time}`,
        );
      }
    });
  });
}

test('with otel and no stream, the records are the only output', async () => {
  const receiver = await startOtlpReceiver();
  const app = await startInstrumentedApp({
    framework: 'http',
    mode: 'records',
    otlpUrl: receiver.url,
  });
  try {
    await get(app, '/only-records');
    const [record] = await receiver.waitFor(1);
    assert.equal(record?.attributes['url.path'], '/only-records');
    assert.equal(app.stdout(), '');
  } finally {
    await app.stop();
    await receiver.close();
  }
});

for (const answer of [500, 'hang'] as const) {
  test(`a collector that ${answer === 500 ? 'fails' : 'never answers'} delays no request and loses no line`, async () => {
    const receiver = await startOtlpReceiver(answer);
    const app = await startInstrumentedApp({
      framework: 'http',
      mode: 'both',
      otlpUrl: receiver.url,
    });
    try {
      for (let i = 0; i < 5; i += 1) await get(app, `/r/${i}`);
      const lines = await linesOf(app, 5);
      assert.deepEqual(
        lines.map((line) => line['url.path']),
        ['/r/0', '/r/1', '/r/2', '/r/3', '/r/4'],
      );
    } finally {
      await app.stop();
      await receiver.close();
    }
  });
}
