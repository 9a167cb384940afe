// `sample` where a request has an active span: a success is logged exactly when its trace was
// sampled (the span's sampled flag), whatever sampler decided, so that lines and sampled
// traces join one to one. The spans are the SDK's, its own samplers deciding (OpenTelemetry
// JS's TraceIdRatioBasedSampler, alone and under ParentBasedSampler), started around the
// logger as the HTTP instrumentation starts them: in the caller's context when a traceparent
// came. test/logger/sampling-follows-trace.test.ts runs the instrumentation itself.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import {
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  trace,
} from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { captureLines, type Middleware } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

/** The sampler of the one provider a process may register, switched by each test. */
const switchable: Sampler & { current: Sampler } = {
  current: new TraceIdRatioBasedSampler(1),
  shouldSample(...args) {
    return this.current.shouldSample(...args);
  },
  toString() {
    return `switchable{${this.current}}`;
  },
};
const exported = new InMemorySpanExporter();
const provider = new NodeTracerProvider({
  sampler: switchable,
  spanProcessors: [new SimpleSpanProcessor(exported)],
});
provider.register();
after(() => provider.shutdown());
const tracer = trace.getTracer('sampling-spans');

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The caller's context of a traceparent, as the W3C propagator extracts it. */
function callerContext(header: string | undefined): Context {
  const match = header === undefined ? null : TRACEPARENT.exec(header);
  if (match === null) return ROOT_CONTEXT;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
  });
}

/** A server span for one request, started as the HTTP instrumentation starts it. */
function serverSpan(path: string, traceparent: string | undefined): [Span, Context] {
  const parent = callerContext(traceparent);
  const span = tracer.startSpan(path, { kind: SpanKind.SERVER }, parent);
  return [span, trace.setSpan(parent, span)];
}

const inServerSpan: Middleware = (req, res, next) => {
  const header = req.headers.traceparent;
  const [span, active] = serverSpan(`${req.url}`, typeof header === 'string' ? header : undefined);
  res.on('finish', () => span.end());
  context.with(active, next);
};

/** A server whose requests each run in their own server span; /fail/... answers 500. */
const inSpans = {
  before: [inServerSpan],
  handler: (req: { url?: string | undefined }, res: { statusCode: number; end(): void }) => {
    res.statusCode = req.url?.startsWith('/fail/') ? 500 : 200;
    res.end();
  },
};

/** Each request's traceparent: none for a third, sampled for a third, not for the rest. */
function traceparentFor(i: number): string | undefined {
  if (i % 3 === 0) return undefined;
  const flags = i % 3 === 1 ? '01' : '00';
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${flags}`;
}

const REQUESTS = 600;

/** Sends the requests, one in ten to /fail; resolves once every answer is read. */
async function requestAll(origin: string): Promise<void> {
  const width = 30;
  for (let from = 0; from < REQUESTS; from += width) {
    await Promise.all(
      Array.from({ length: width }, async (_, k) => {
        const i = from + k;
        const header = traceparentFor(i);
        const path = i % 10 === 5 ? `/fail/${i}` : `/ok/${i}`;
        const reply = await fetch(
          origin + path,
          header === undefined ? {} : { headers: { traceparent: header } },
        );
        await reply.arrayBuffer();
      }),
    );
  }
}

/** `path trace-id` of every sampled span of a success. */
function sampledSuccesses(): string[] {
  return exported
    .getFinishedSpans()
    .filter((span) => span.name.startsWith('/ok/'))
    .map((span) => `${span.name} ${span.spanContext().traceId}`)
    .sort();
}

const FORMAT = ':url :trace-id :status';

function loggedSuccesses(lines: readonly string[]): string[] {
  return lines
    .filter((line) => line.endsWith(' 200'))
    .map((line) => line.slice(0, -4))
    .sort();
}

const samplers: ReadonlyArray<readonly [string, Sampler]> = [
  ['TraceIdRatioBasedSampler(0.3)', new TraceIdRatioBasedSampler(0.3)],
  [
    'ParentBasedSampler(TraceIdRatioBasedSampler(0.3))',
    new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.3) }),
  ],
];

for (const [name, sampler] of samplers) {
  describe(`sample: 0.3 beside the SDK's ${name}`, () => {
    it('logger: a line for each sampled success span and none for the others, every failure', async () => {
      switchable.current = sampler;
      exported.reset();
      const server = await loggedServer(
        (stream) => logger(FORMAT, { stream, sample: 0.3 }),
        inSpans,
      );
      try {
        await requestAll(server.origin);
        const expected = sampledSuccesses();
        const lines = await server.capture.waitFor(expected.length + REQUESTS / 10);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.ok(expected.length > 30 && expected.length < REQUESTS - 100, `${expected.length}`);
        assert.deepEqual(loggedSuccesses(lines), expected);
        assert.equal(lines.filter((line) => line.endsWith(' 500')).length, REQUESTS / 10);
      } finally {
        await server.close();
      }
    });

    it('fetchLogger: a line for each sampled success span and none for the others', async () => {
      switchable.current = sampler;
      exported.reset();
      const capture = captureLines();
      const log = fetchLogger(FORMAT, { stream: capture.stream, sample: 0.3 });
      const logged = log(
        (request: Request) =>
          new Response(null, { status: request.url.includes('/fail/') ? 500 : 200 }),
      );
      const server = await serveFetch(async (request: Request) => {
        const path = new URL(request.url).pathname;
        const [span, active] = serverSpan(path, request.headers.get('traceparent') ?? undefined);
        try {
          return await context.with(active, () => logged(request));
        } finally {
          span.end();
        }
      });
      try {
        await requestAll(server.origin);
        const expected = sampledSuccesses();
        const lines = await capture.waitFor(expected.length + REQUESTS / 10);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(loggedSuccesses(lines), expected);
      } finally {
        await server.close();
      }
    });
  });
}

describe('sample with traceId: false beside the SDK', () => {
  it('decides by its rate alone, whatever the span says', async () => {
    switchable.current = new TraceIdRatioBasedSampler(1);
    const server = await loggedServer(
      (stream) => logger(':url', { stream, sample: { rate: 0, traceId: false } }),
      inSpans,
    );
    try {
      await requestAll(server.origin);
      const lines = await server.capture.waitFor(REQUESTS / 10);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Every span was sampled; no success is logged at rate 0, every failure is.
      assert.deepEqual(
        lines.filter((line) => !line.startsWith('/fail/')),
        [],
      );
      assert.equal(lines.length, REQUESTS / 10);
    } finally {
      await server.close();
    }
  });
});
