import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { logger } from '../../src/logger/index.js';
import {
  captureLines,
  type LineCapture,
  rawHead,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fixTime } from '../helpers/logger.js';
import { fc } from '../helpers/properties.js';

// The `json` and `ecs` presets write their lines with a writer of their own (json-presets.ts),
// not the generic field list every other field map goes through (json.ts). The two must
// agree: for arbitrary requests and responses, under each redaction policy, a preset's line
// equals the line of a copy of its field map (a copy is not the preset, so it takes the
// generic path). Time is frozen so that `time`, `msg` and `duration_ms` agree too. Both
// writers read the body size through the same function, so that field is checked against
// what the client received instead: 0 without a body, the Content-Length of the head it was
// sent, or else the length of the body it was sent.

interface Reply {
  status: number;
  /** How the response gives its Content-Length, if at all. */
  size: 'none' | 'setHeader' | 'writeHead' | 'writeHead-pairs' | 'text';
  route: string | undefined;
  baseUrl: string | undefined;
  /** What the handler records with logger.recordError, if anything. */
  error: unknown;
}

let reply: Reply = {
  status: 200,
  size: 'none',
  route: undefined,
  baseUrl: undefined,
  error: undefined,
};
let server: TestServer;
let undoTime: () => void;
const pairs: Array<{ preset: LineCapture; generic: LineCapture; sizeKey: string }> = [];
const SIZE_KEYS = { json: 'http.response.body.size', ecs: 'http.response.body.bytes' };

function answer(req: IncomingMessage, res: ServerResponse): void {
  const body = 'hello';
  const { status, size, error } = reply;
  if (error !== undefined) logger.recordError(req, error);
  if (size === 'setHeader') res.setHeader('Content-Length', body.length);
  if (size === 'text') res.setHeader('Content-Length', `0${body.length}`);
  if (size === 'writeHead') res.writeHead(status, { 'content-length': body.length });
  else if (size === 'writeHead-pairs')
    res.writeHead(status, [['Content-Length', String(body.length)]]);
  else res.statusCode = status;
  res.end(req.method === 'HEAD' ? undefined : body);
}

before(async () => {
  undoTime = fixTime(0);
  const policies = [undefined, false, { query: ['page', 'q'], headers: ['x-secret'] }];
  const middleware = [logger.requestId()];
  for (const name of ['json', 'ecs'] as const) {
    const copy = { ...logger.json.presets[name] };
    for (const redact of policies) {
      const pair = { preset: captureLines(), generic: captureLines(), sizeKey: SIZE_KEYS[name] };
      pairs.push(pair);
      middleware.push(logger(name, { stream: pair.preset.stream, redact }));
      middleware.push(logger(logger.json(copy), { stream: pair.generic.stream, redact }));
    }
  }
  server = await startServer({
    middleware: [
      // What a router records about the route it matched (Express sets both).
      (req, _res, next) => {
        const routed = req as { route?: unknown; baseUrl?: unknown };
        if (reply.route !== undefined) routed.route = { path: reply.route };
        if (reply.baseUrl !== undefined) routed.baseUrl = reply.baseUrl;
        next();
      },
      ...middleware,
    ],
    handler: answer,
  });
});

after(async () => {
  await server.close();
  undoTime();
});

const text = fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map((s) => s.trim());
const urlPiece = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('?', '&', '=', 'token=', 'page=', 'q=', '%ff', '%e2%80%a8', '"', '\\'),
);

test('the json and ecs presets write the lines their field maps give through the generic renderer', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE'),
      fc.array(urlPiece, { maxLength: 30 }).map((c) => `/${c.join('')}`),
      fc.record({
        'user-agent': fc.option(text, { nil: undefined }),
        'x-request-id': fc.option(text, { nil: undefined }),
        traceparent: fc.option(
          fc.constantFrom(
            '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
            '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
            'garbage',
          ),
          { nil: undefined },
        ),
      }),
      fc.record({
        status: fc.constantFrom(200, 204, 301, 404, 500, 503),
        size: fc.constantFrom('none', 'setHeader', 'writeHead', 'writeHead-pairs', 'text'),
        route: fc.option(fc.constantFrom('/items/:id', ''), { nil: undefined }),
        baseUrl: fc.option(fc.constantFrom('/api', ''), { nil: undefined }),
        error: fc.option(
          fc.oneof(
            text.map((message) => Object.assign(new Error(message), { type: 'app.failed' })),
            text.map((message) => new RangeError(message)),
            text.map((message) =>
              Object.assign(new SyntaxError(message), {
                type: 'entity.parse.failed',
              }),
            ),
            text,
          ),
          { nil: undefined },
        ),
      }) as fc.Arbitrary<Reply>,
      fc.constantFrom('1.1', '1.0'),
      async (method, url, given, next, version) => {
        reply = next;
        const headers: Record<string, string> = { connection: 'close' };
        for (const [name, value] of Object.entries(given)) {
          if (value !== undefined) headers[name] = value;
        }
        const starts = pairs.map(({ preset }) => preset.lines.length);
        const head = rawHead(method, url, headers).replace(' HTTP/1.1\r\n', ` HTTP/${version}\r\n`);
        const { raw } = await sendRaw(server, [Buffer.from(head, 'latin1')]);
        const headEnd = raw.indexOf('\r\n\r\n') + 2;
        const announced = /\r\ncontent-length: *(\d+)\r\n/i.exec(raw.slice(0, headEnd));
        // No body (HEAD, 204): 0; without a Content-Length, a body sent whole to an HTTP/1.0
        // client: the bytes received.
        const status = Number(raw.slice('HTTP/1.1 '.length, 'HTTP/1.1 200'.length));
        const noBody = method === 'HEAD' || status === 204;
        const received = raw.length - (headEnd + 2);
        const size = noBody ? 0 : announced ? Number(announced[1]) : received;
        for (const [i, { preset, generic, sizeKey }] of pairs.entries()) {
          const at = starts[i]!;
          const lines = await preset.waitFor(at + 1);
          const expected = await generic.waitFor(at + 1);
          assert.equal(lines[at], expected[at]);
          assert.equal(JSON.parse(lines[at] as string)[sizeKey], size);
        }
      },
    ),
    { numRuns: 120 },
  );
});
