// OpenTelemetry records follow the lines' rule for control characters: exporters print records
// to terminals and line-oriented files too, where a raw U+009B (a one-character CSI) or U+0085
// (NEL, a line break to some readers) does what it does in a line. Every string of a record,
// body and attributes, carries them escaped as a text line writes them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { hostileSetup, rawControl } from '../helpers/hostile.js';
import { captureLines, type Middleware, rawHead, sendRaw, startServer } from '../helpers/index.js';

const hostile = hostileSetup();

/**
 * The one record a request for `target` with `userAgent` gives through `logger(format, { otel })`,
 * after the `before` middleware.
 */
async function recordFor(
  format: string,
  userAgent: string,
  target = '/p?q=1',
  before: readonly Middleware[] = [],
) {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  const capture = captureLines();
  const server = await startServer({
    middleware: [
      ...before,
      hostile.subject.logger(format, { stream: capture.stream, otel: { loggerProvider } }),
    ],
    handler: (_req, res) => res.end('ok'),
  });
  try {
    // Written as latin1 bytes: Node reads header values so, C1 controls included.
    const head = rawHead('GET', target, { 'user-agent': userAgent, connection: 'close' });
    await sendRaw(server, [Buffer.from(head, 'latin1')]);
    await capture.waitFor(1);
    const [record] = exporter.getFinishedLogRecords();
    assert.ok(record, 'one record');
    return record;
  } finally {
    await server.close();
  }
}

// What Node lets through in a header value: HTAB and obs-text, C1 controls among it.
const agent = 'curl\u0085forged\u009b31m\tx';

describe('control characters in OpenTelemetry records', () => {
  test('a string attribute carries C0 and C1 controls escaped as a line writes them', async () => {
    const record = await recordFor('json', agent);
    assert.equal(record.attributes['user_agent.original'], 'curl\\u0085forged\\u009b31m\\tx');
  });

  test('no string of a record holds a raw control character, for a text format', async () => {
    const record = await recordFor('combined', agent);
    const strings = [record.body, ...Object.values(record.attributes)].filter(
      (value) => typeof value === 'string',
    );
    for (const value of strings) assert.doesNotMatch(value as string, rawControl);
    assert.ok(strings.some((value) => (value as string).includes('\\u009b')));
  });

  test("the body of a JSON format's record escapes a control in a URL the application decoded", async () => {
    // An application that decodes req.url before the logger runs hands it raw C1 controls.
    const decode: Middleware = (req, _res, next) => {
      req.url = decodeURIComponent(req.url as string);
      next();
    };
    const record = await recordFor('json', 'curl', '/p%C2%9Bx', [decode]);
    assert.match(String(record.body), /^GET \/p\\u009bx 200 /);
    assert.equal(record.attributes['url.path'], '/p\\u009bx');
  });
});
