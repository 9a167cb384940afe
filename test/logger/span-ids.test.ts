// The ids of the active OpenTelemetry span in lines: `:trace-id`, `:span-id` and `:trace-flags`,
// json's trace_id/span_id/trace_flags and ecs's trace.id/span.id. The spans are real ones from
// the SDK's tracer, made active around the logger by a middleware as the HTTP instrumentation
// does around the whole request.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { context, type Span, TraceFlags, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { logger } from '../../src/logger/index.js';
import { type Middleware, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const provider = new NodeTracerProvider();
provider.register();
after(() => provider.shutdown());
const tracer = trace.getTracer('test');

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** A middleware running the rest of the request inside a new span; the spans it made. */
function inSpan(options: { sampled?: boolean } = {}): { middleware: Middleware; spans: Span[] } {
  const spans: Span[] = [];
  const middleware: Middleware = (_req, _res, next) => {
    const span = tracer.startSpan('request');
    if (options.sampled === false) {
      const { traceId, spanId } = span.spanContext();
      const unsampled = trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.NONE });
      spans.push(unsampled);
      context.with(trace.setSpan(context.active(), unsampled), next);
      return;
    }
    spans.push(span);
    context.with(trace.setSpan(context.active(), span), next);
  };
  return { middleware, spans };
}

async function lineFor(
  format: string,
  span: ReturnType<typeof inSpan> | undefined,
  headers: Record<string, string> = {},
): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), {
    before: span === undefined ? [] : [span.middleware],
  });
  try {
    await send(server, { headers });
    const [line] = await server.capture.waitFor(1);
    return line as string;
  } finally {
    await server.close();
  }
}

describe('with an active span', () => {
  it('the text tokens give its trace id, span id and flags', async () => {
    const span = inSpan();
    const line = await lineFor(':trace-id :span-id :trace-flags', span);
    const ids = span.spans[0]?.spanContext();
    assert.equal(line, `${ids?.traceId} ${ids?.spanId} 01`);
  });

  it('json carries trace_id, span_id and trace_flags', async () => {
    const span = inSpan();
    const fields = JSON.parse(await lineFor('json', span));
    const ids = span.spans[0]?.spanContext();
    assert.deepEqual(
      [fields.trace_id, fields.span_id, fields.trace_flags],
      [ids?.traceId, ids?.spanId, '01'],
    );
  });

  it('ecs carries trace.id and span.id', async () => {
    const span = inSpan();
    const fields = JSON.parse(await lineFor('ecs', span));
    const ids = span.spans[0]?.spanContext();
    assert.deepEqual([fields['trace.id'], fields['span.id']], [ids?.traceId, ids?.spanId]);
  });

  it('an unsampled span has trace_flags 00', async () => {
    const fields = JSON.parse(await lineFor('json', inSpan({ sampled: false })));
    assert.equal(fields.trace_flags, '00');
  });

  it("wins over the request's traceparent", async () => {
    const span = inSpan();
    const fields = JSON.parse(
      await lineFor('json', span, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` }),
    );
    assert.equal(fields.trace_id, span.spans[0]?.spanContext().traceId);
    assert.equal(fields.span_id, span.spans[0]?.spanContext().spanId);
  });

  it('is the one active when the logger ran, not when the line is written', async () => {
    const span = inSpan();
    const server = await loggedServer((stream) => logger('json', { stream }), {
      before: [span.middleware],
      // The answer comes from outside the span (a callback of a pool, a queue...).
      handler: (_req, res) =>
        context.with(trace.deleteSpan(context.active()), () => setTimeout(() => res.end('ok'), 5)),
    });
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(line as string).span_id, span.spans[0]?.spanContext().spanId);
    } finally {
      await server.close();
    }
  });
});

describe('without an active span', () => {
  it("json takes the traceparent's trace id and writes no span id of the caller's", async () => {
    const fields = JSON.parse(
      await lineFor('json', undefined, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` }),
    );
    assert.equal(fields.trace_id, CALLER_TRACE);
    assert.equal('span_id' in fields, false);
    assert.equal('trace_flags' in fields, false);
  });

  it('the span tokens are "-"', async () => {
    assert.equal(
      await lineFor(':span-id :trace-flags', undefined, {
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      }),
      '- -',
    );
  });

  for (const hostile of [
    `00-${CALLER_TRACE}-${CALLER_SPAN}-01 x`,
    `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`,
    '00-zz',
  ]) {
    it(`a hostile traceparent ${JSON.stringify(hostile)} gives no ids`, async () => {
      const fields = JSON.parse(await lineFor('json', undefined, { traceparent: hostile }));
      assert.deepEqual([fields.trace_id, fields.span_id], [undefined, undefined]);
    });
  }
});
