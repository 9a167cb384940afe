import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FormatFn } from '../../src/index.js';
import { hostileSetup, quotedFields } from '../helpers/hostile.js';
import {
  captureLines,
  type Framework,
  type LineCapture,
  rawHead,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fc, headerValue, hostileString } from '../helpers/properties.js';

const hostile = hostileSetup();

// Properties of the logger through a real server: whatever a client puts in the URL, the
// headers and the Basic-auth user name, and whatever a custom token returns, each request
// gives exactly one line, with no raw control character, in which every quoted field is
// intact and unescapes to the value that went in; through format strings and through format
// functions, which get arrays and objects (Express's req.query) escaped too.

let server: TestServer;
let capture: LineCapture;
let tokenValue = '';

const format = '":method :url" ":remote-user" ":referrer" ":user-agent" ":property-value"';

before(async () => {
  await hostile.ready;
  hostile.subject.logger.token('property-value', () => tokenValue);
  capture = captureLines();
  server = await startServer({
    // Unmasked, so that each field can be compared with what was sent (masking writes only
    // `REDACTED`, which cannot forge anything).
    middleware: [hostile.subject.logger(format, { stream: capture.stream, redact: false })],
  });
});

after(async () => {
  await server.close();
});

/** Characters Node accepts in a request-target: visible ASCII (quotes and backslashes too). */
const urlChar = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Any string, weighted towards what forges or hides log lines. */
const anyString = hostileString([
  '\r\n',
  '\n',
  '\r',
  '"',
  '\\',
  '\\"',
  '\u001b[31m',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\b',
  '\t',
  '" "',
]);

test('any URL, headers, user name and token value give exactly one intact line', async () => {
  let count = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(urlChar, { maxLength: 40 }).map((c) => `/${c.join('')}`),
      headerValue(),
      headerValue(),
      anyString.map((s) => s.replaceAll(':', '')),
      anyString,
      async (url, referrer, agent, user, value) => {
        tokenValue = value;
        const headers: Record<string, string> = {
          referer: referrer,
          'user-agent': agent,
          authorization: `Basic ${Buffer.from(`${user}:pw`, 'utf8').toString('base64')}`,
          connection: 'close',
        };
        // Counted from the lines already there, so one failing run cannot fail the next ones.
        const start = capture.lines.length;
        await sendRaw(server, [Buffer.from(rawHead('GET', url, headers), 'latin1')]);
        count++;
        const lines = await capture.waitFor(start + 1);
        // A forged line would come in the same write as the real one.
        assert.equal(lines.length, start + 1, 'one line per request');
        const fields = quotedFields(lines[start]!, 5);
        assert.equal(fields[0], `GET ${url}`);
        // What the server decoded: the user name's bytes as UTF-8 (a lone surrogate is U+FFFD).
        assert.equal(fields[1], Buffer.from(user, 'utf8').toString('utf8') || '-');
        assert.equal(fields[2], referrer || '-');
        assert.equal(fields[3], agent || '-');
        assert.equal(fields[4], value || '-');
        assert.deepEqual(hostile.uncaught.take(), []);
      },
    ),
    { numRuns: 250 },
  );
  // No request gave a second (forged) line after its own.
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(capture.lines.length, count);
});

/**
 * A dev line without the four colour codes the format itself writes (reset, status colour,
 * reset, reset), and only those: one more, from a request, stays in and fails the check.
 */
function withoutDevColours(line: string): string {
  const match = /^\u001b\[0m(.*) \u001b\[\d+m(\d{3}|-)\u001b\[0m (.*)\u001b\[0m$/s.exec(line);
  return match === null ? line : `${match[1]} ${match[2]} ${match[3]}`;
}

test('any token value in any predefined format gives exactly one line with no raw control', async () => {
  const formats = ['combined', 'common', 'dev', 'short', 'tiny'] as const;
  const captures = formats.map(() => captureLines());
  const logged = await startServer({
    middleware: formats.map((name, i) =>
      hostile.subject.logger(name, { stream: captures[i]!.stream }),
    ),
  });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(urlChar, { maxLength: 30 }).map((c) => `/${c.join('')}`),
        headerValue(30),
        anyString.map((s) => s.replaceAll(':', '')),
        async (url, agent, user) => {
          const headers = {
            'user-agent': agent,
            authorization: `Basic ${Buffer.from(`${user}:pw`, 'utf8').toString('base64')}`,
            connection: 'close',
          };
          const starts = captures.map((c) => c.lines.length);
          await sendRaw(logged, [Buffer.from(rawHead('GET', url, headers), 'latin1')]);
          for (const [i, c] of captures.entries()) {
            const start = starts[i]!;
            const lines = await c.waitFor(start + 1);
            assert.equal(lines.length, start + 1, `${formats[i]}: one line per request`);
            // dev colours with ESC when allowed, at four known places; any other must be escaped.
            const line = formats[i] === 'dev' ? withoutDevColours(lines[start]!) : lines[start]!;
            assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, line);
          }
        },
      ),
      { numRuns: 100 },
    );
  } finally {
    await logged.close();
  }
});

/** A string that can be percent-encoded (no lone surrogate), so a query can carry it. */
const queryValue = anyString.filter((value) => {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
});

/**
 * A format function written as READMEs show them, over a custom token returning Express's
 * req.query whole: it indexes, joins and interpolates what it gets.
 */
const queryFormat: FormatFn = (tokens, req, res) => {
  const query = tokens['property-query']?.(req, res) as unknown as Record<string, unknown>;
  const repeated = query.x as readonly unknown[];
  const rest = Object.keys(query)
    .map((key) => `${key}=${query[key]}`)
    .join('&');
  const agent = tokens['user-agent'](req, res) ?? '';
  return `"${tokens.method(req, res)} ${tokens.url(req, res)}" "${repeated.join(' ')}" "${repeated[1]}" "${agent}" "${rest}"`;
};

for (const framework of ['express4', 'express5'] satisfies Framework[]) {
  test(`any query and headers reach a format function escaped, arrays and objects included (${framework})`, async () => {
    hostile.subject.logger.token('property-query', (req) => (req as { query?: never }).query);
    const lines = captureLines();
    const logged = await startServer({
      framework,
      middleware: [hostile.subject.logger(queryFormat, { stream: lines.stream })],
    });
    let count = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          queryValue,
          queryValue,
          queryValue,
          headerValue(30),
          async (first, second, key, agent) => {
            // x repeats (an array in both Express 4's qs and Express 5's querystring), a key
            // of the client's choosing, and o[i] (an object under qs).
            const e = encodeURIComponent;
            const url = `/f?x=${e(first)}&x=${e(second)}&k${e(key)}=${e(first)}&o[i]=${e(second)}`;
            const start = lines.lines.length;
            const headers = { 'user-agent': agent, connection: 'close' };
            await sendRaw(logged, [Buffer.from(rawHead('GET', url, headers), 'latin1')]);
            count++;
            const written = await lines.waitFor(start + 1);
            assert.equal(written.length, start + 1, 'one line per request');
            const fields = quotedFields(written[start]!, 5);
            assert.deepEqual(fields.slice(1, 4), [`${first} ${second}`, second, agent]);
            assert.deepEqual(hostile.uncaught.take(), []);
          },
        ),
        { numRuns: 100 },
      );
      // No request gave a second (forged) line after its own.
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(lines.lines.length, count);
    } finally {
      await logged.close();
    }
  });
}
