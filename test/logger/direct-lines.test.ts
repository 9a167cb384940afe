// The predefined text lines are written by a direct line derived from each format string
// (text/predefined-lines.ts); this differential test holds every one of them to the compiled
// format of the same string, over many requests through a real server, with the default
// redaction and with none.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { compile } from '../../src/logger/text/compile.js';
import { directFormats } from '../../src/logger/text/predefined-lines.js';
import type { FormatFn } from '../../src/logger/types.js';
import {
  captureLines,
  type LineCapture,
  rawHead,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { exactLinesEachTest } from '../helpers/logger.js';
import { fc, headerValue } from '../helpers/properties.js';

// A frozen clock: the two paths' `:date[clf]` cannot fall in two seconds.
exactLinesEachTest();

/** Each direct format beside the compiled format of its string. */
const pairs = [...directFormats].map(([source, direct]) => ({
  source,
  direct,
  compiled: compile(source),
}));

/** A line per request: each pair's two lines side by side, as JSON. */
const bothPaths: FormatFn = (tokens, req, res) =>
  JSON.stringify(
    pairs.map(({ direct, compiled }) => [direct(tokens, req, res), compiled(tokens, req, res)]),
  );

let server: TestServer;
let masked: LineCapture;
let unmasked: LineCapture;

before(async () => {
  masked = captureLines();
  unmasked = captureLines();
  server = await startServer({
    middleware: [
      logger(bothPaths, { stream: masked.stream }),
      logger(bothPaths, { stream: unmasked.stream, redact: false }),
    ],
    // The status and the Content-Length the client asks for (none when absent).
    handler: (req, res) => {
      res.statusCode = Number(req.headers['x-status'] ?? 200);
      const length = req.headers['x-length'];
      if (typeof length === 'string') res.setHeader('content-length', length);
      res.end(typeof length === 'string' ? 'x'.repeat(Number(length)) : 'ok');
    },
  });
});

after(async () => {
  await server.close();
});

test('there is a direct line for every predefined text format, dev in each colour too', () => {
  // combined, common, short, tiny, dev without colour and dev in its five status colours.
  assert.equal(pairs.length, 10);
});

/** Characters Node accepts in a request-target: visible ASCII. */
const urlChar = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
/** User names, some shaped like keys (masked), some ordinary. */
const userName = fc.oneof(
  fc.constantFrom('tobi', 'tj', '', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'AKIAIOSFODNN7EXAMPLE'),
  fc.string({ maxLength: 12 }).map((s) => s.replaceAll(':', '')),
);

test('every direct line writes what the compiled format of its string writes', async () => {
  let count = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(urlChar, { maxLength: 30 }).map((c) => `/${c.join('')}`),
      fc.option(headerValue(30), { nil: undefined }),
      fc.option(fc.constantFrom('http://a.example/?token=s3cret', '/back', 'x'), {
        nil: undefined,
      }),
      fc.option(fc.tuple(userName, fc.constantFrom('', 'pw')), { nil: undefined }),
      fc.constantFrom('1.1', '1.0'),
      fc.constantFrom(200, 204, 301, 404, 500),
      fc.option(fc.constantFrom('0', '2', '10'), { nil: undefined }),
      async (url, agent, referrer, credentials, version, status, length) => {
        const headers: Record<string, string> = { connection: 'close', 'x-status': `${status}` };
        if (agent !== undefined) headers['user-agent'] = agent;
        if (referrer !== undefined) headers.referer = referrer;
        if (credentials !== undefined) {
          const pair = `${credentials[0]}:${credentials[1]}`;
          headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
        }
        if (length !== undefined && status !== 204) headers['x-length'] = length;
        const head = rawHead('GET', url, headers).replace('HTTP/1.1', `HTTP/${version}`);
        await sendRaw(server, [Buffer.from(head, 'latin1')]);
        count++;
        for (const capture of [masked, unmasked]) {
          const lines = await capture.waitFor(count);
          for (const [i, [direct, compiled]] of JSON.parse(lines[count - 1] as string).entries()) {
            assert.equal(direct, compiled, (pairs[i] as { source: string }).source);
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});
