// A server that keeps everything a request's failure can reach: the `json` line, a text line
// with `:error-type` and `:error-message`, the OpenTelemetry record, the response the framework
// sends by itself (Express 5's final handler, whose page carries the error's message), and the
// error given to `next`. For the tests that no submitted value reaches any of them.
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { send } from './client.js';
import type { Subject } from './hostile.js';
import { captureLines } from './lines.js';
import { type Middleware, startServer } from './server.js';

/** What one request reached. */
export interface Seen {
  readonly status: number;
  readonly response: string;
  readonly json: string;
  readonly text: string;
  /** The record's body and attributes, as JSON. */
  readonly record: string;
  readonly error: unknown;
}

export interface Witness {
  /** The middleware (a parser) the next requests go through. */
  use(middleware: Middleware): void;
  /** Posts `body` and waits for its lines and record. Requests must not overlap. */
  post(body: string, contentType?: string): Promise<Seen>;
  close(): Promise<void>;
}

/** The text format's line: what `:error-message` gives, between markers. */
export const TEXT_FORMAT = ':status :error-type ":error-message"';

/** A witness server on Express 5; `logger` options apply to both loggers. */
export async function witnessServer(
  subject: Subject,
  loggerOptions: Record<string, unknown> = {},
): Promise<Witness> {
  const json = captureLines();
  const text = captureLines();
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  let current: Middleware = (_req, _res, next) => next();
  const server = await startServer({
    framework: 'express5',
    errors: 'framework',
    middleware: [
      subject.logger('json', {
        ...loggerOptions,
        stream: json.stream,
        otel: { loggerProvider },
      }) as unknown as Middleware,
      subject.logger(TEXT_FORMAT, { ...loggerOptions, stream: text.stream }) as Middleware,
      (req, res, next) => current(req, res, next),
    ],
  });
  let count = 0;
  return {
    use(middleware) {
      current = middleware;
    },
    async post(body, contentType = 'application/json') {
      const reply = await send(server, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      const outcome = await server.nextOutcome();
      count += 1;
      const [jsonLines, textLines] = await Promise.all([json.waitFor(count), text.waitFor(count)]);
      const record = exporter.getFinishedLogRecords()[count - 1];
      return {
        status: reply.status,
        response: reply.text,
        json: jsonLines[count - 1] ?? '',
        text: textLines[count - 1] ?? '',
        record: JSON.stringify({ body: record?.body, attributes: record?.attributes }),
        error: outcome.error,
      };
    },
    close: () => server.close(),
  };
}
