// OpenTelemetry test peers: an OTLP/HTTP receiver for log records (what a collector is to an
// exporter), and a child process running an instrumented application (test/logger/fixtures/otel/).
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** One log record as OTLP/JSON carries it, with its attributes as a plain object. */
export interface ReceivedRecord {
  readonly body: unknown;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly timeUnixNano: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly flags: number | undefined;
  readonly scope: string;
  readonly attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The URL exporters post log records to. */
  readonly url: string;
  readonly records: ReceivedRecord[];
  /** Resolves once `count` records arrived (rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<ReceivedRecord[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

function plain(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

interface OtlpLogs {
  resourceLogs?: Array<{
    scopeLogs?: Array<{
      scope?: { name?: string };
      logRecords?: Array<{
        body?: AnyValue;
        severityNumber: number;
        severityText: string;
        timeUnixNano: string;
        traceId?: string;
        spanId?: string;
        flags?: number;
        attributes?: Array<{ key: string; value: AnyValue }>;
      }>;
    }>;
  }>;
}

function recordsOf(payload: OtlpLogs): ReceivedRecord[] {
  const out: ReceivedRecord[] = [];
  for (const resource of payload.resourceLogs ?? []) {
    for (const scope of resource.scopeLogs ?? []) {
      for (const record of scope.logRecords ?? []) {
        out.push({
          body: plain(record.body),
          severityNumber: record.severityNumber,
          severityText: record.severityText,
          timeUnixNano: record.timeUnixNano,
          traceId: record.traceId ?? '',
          spanId: record.spanId ?? '',
          flags: record.flags,
          scope: scope.scope?.name ?? '',
          attributes: Object.fromEntries(
            (record.attributes ?? []).map(({ key, value }) => [key, plain(value)]),
          ),
        });
      }
    }
  }
  return out;
}

/**
 * An OTLP/HTTP (JSON) receiver on 127.0.0.1. `answer: 'hang'` never answers (a collector that
 * stalls), `answer: 500` fails every export; otherwise records are kept and acknowledged.
 */
export async function startOtlpReceiver(answer: 'ok' | 'hang' | 500 = 'ok'): Promise<OtlpReceiver> {
  const records: ReceivedRecord[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (answer === 'hang') return;
      if (answer === 500) {
        res.statusCode = 500;
        res.end();
        return;
      }
      records.push(...recordsOf(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpLogs));
      for (const wake of waiters) wake();
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/logs`,
    records,
    waitFor(count, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (records.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(records.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${records.length} of ${count} records arrived`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A child process running an instrumented application of test/logger/fixtures/otel/: app.cjs
 * (a framework, lines and records), or sampling-app.cjs (a door, its `sample` rate and the
 * SDK's sampler, as setup.cjs reads OTEL_TEST_SAMPLER).
 */
export interface InstrumentedApp {
  readonly base: string;
  /** What the application wrote to stdout so far. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startInstrumentedApp(
  options:
    | { framework: 'http' | 'express'; mode: 'both' | 'records'; otlpUrl: string }
    | { sampling: 'node' | 'fetch'; rate: number; sampler: string },
): Promise<InstrumentedApp> {
  const dir = new URL('../logger/fixtures/otel/', import.meta.url);
  const [script, args, env] =
    'sampling' in options
      ? [
          'sampling-app.cjs',
          [options.sampling, String(options.rate)],
          { OTEL_TEST_SAMPLER: options.sampler },
        ]
      : ['app.cjs', [options.framework, options.mode], { OTLP_LOGS_URL: options.otlpUrl }];
  const child: ChildProcess = fork(fileURLToPath(new URL(script, dir)), args, {
    execArgv: ['--require', fileURLToPath(new URL('setup.cjs', dir))],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => {
      throw new Error(`the application exited: ${err}`);
    }),
  ])) as [{ port: number }];
  return {
    base: `http://127.0.0.1:${message.port}`,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}
