import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadSubject, rawControl, type Subject, watchUncaught } from '../helpers/hostile.js';
import {
  captureLines,
  type LineCapture,
  rawHead,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fc, headerValue, hostileString } from '../helpers/properties.js';

// Properties of the JSON formats through a real server, with requests sent byte by byte over
// raw sockets: whatever the URL, the headers (up to 16 KB), the request id and traceparent a
// client sends, and whatever a custom token or field function returns (lone surrogates,
// U+2028, controls), every request gives exactly one line per logger, the line parses as
// JSON, and it holds no raw C0 or C1 control, U+2028 or U+2029.

let subject: Subject;
let server: TestServer;
const captures: LineCapture[] = [];
const uncaught = watchUncaught();
let tokenValue = '';

/** A request id as the middleware accepts or makes one: one path segment, never `.` or `..`. */
const SAFE_ID = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._:=+@-]{1,128}$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

before(async () => {
  subject = await loadSubject();
  const { logger } = subject;
  logger.token('json-property-value', () => tokenValue);
  const custom = logger.json({
    token: ':json-property-value',
    text: 'value=:json-property-value',
    fn: () => ({ nested: tokenValue, list: [tokenValue] }),
    agent: ':req[user-agent]',
    id: ':request-id',
  });
  const formats = ['json', 'ecs', custom] as const;
  for (let i = 0; i < formats.length; i++) captures.push(captureLines());
  server = await startServer({
    middleware: [
      subject.requestId(),
      ...formats.map((format, i) => logger(format, { stream: captures[i]!.stream })),
    ],
  });
});

after(async () => {
  await server.close();
  uncaught.stop();
});

/** What Node accepts in a request-target: visible ASCII, and percent-encoded bytes of any value. */
const urlPiece = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  // Invalid UTF-8 (lone continuation bytes, overlongs, surrogate encodings) percent-encoded.
  fc.constantFrom('%ff', '%c3%28', '%80', '%ed%a0%80', '%e2%80%a8', '%00', '%0a', '%'),
);
/** A header value near Node's 16 KB limit for the whole head. */
const bigHeader = fc.integer({ min: 8_000, max: 15_000 }).map((n) => 'A'.repeat(n));
/** Any JS string, weighted towards what breaks JSON lines. */
const anyString = hostileString([
  '\n',
  '\r',
  '"',
  '\\',
  '\u0000',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
  '\udfff\ud800',
  '\ud83d\ude00',
]);

test('every line of the JSON formats parses as JSON and holds no raw control, for any request', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(urlPiece, { maxLength: 40 }).map((c) => `/${c.join('')}`),
      fc.oneof({ weight: 4, arbitrary: headerValue() }, { weight: 1, arbitrary: bigHeader }),
      headerValue(),
      headerValue(),
      anyString,
      async (url, agent, requestIdHeader, traceparent, value) => {
        tokenValue = value;
        const headers: Record<string, string> = {
          'user-agent': agent,
          'x-request-id': requestIdHeader,
          traceparent,
          authorization: `Bearer ${requestIdHeader}`,
          connection: 'close',
        };
        const starts = captures.map((c) => c.lines.length);
        await sendRaw(server, [Buffer.from(rawHead('GET', url, headers), 'latin1')]);
        for (const [i, capture] of captures.entries()) {
          const start = starts[i]!;
          const lines = await capture.waitFor(start + 1);
          assert.equal(lines.length, start + 1, 'one line per request');
          const line = lines[start]!;
          assert.doesNotMatch(line, rawControl, line);
          assert.doesNotMatch(line, LONE_SURROGATE, 'no lone surrogate raw');
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (i === 2) {
            // The custom format: what the token gave, back intact (lone surrogates escaped).
            assert.equal(entry.token, value === '' ? undefined : value);
            assert.deepEqual(entry.fn, { nested: value, list: [value] });
            assert.equal(entry.agent, agent === '' ? undefined : agent);
            assert.match(String(entry.id), SAFE_ID);
          } else {
            const id = entry['http.request.id'];
            assert.match(String(id), SAFE_ID);
            const trace = entry[i === 0 ? 'trace_id' : 'trace.id'];
            assert.ok(trace === undefined || traceparent.includes(trace as string));
          }
        }
        assert.deepEqual(uncaught.take(), []);
      },
    ),
    { numRuns: 150 },
  );
});
