// One line model, two front doors: the same requests through node:http with `logger(...)` and
// through a fetch handler served on Node with `fetchLogger(...)` give the same line, field by
// field, for every predefined format, except the time, the durations and the address.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fetchLogger, logger, recordError } from '../../src/logger/index.js';
import { fetchAdapters, serveFetch } from '../helpers/fetch.js';
import { captureLines, type SendOptions, send } from '../helpers/index.js';
import { fixTime, loggedServer } from '../helpers/logger.js';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime(1.5);
});
afterEach(() => undo());

/** One exchange, as a node:http handler and as a fetch handler answer it. */
interface Case {
  readonly name: string;
  readonly request: SendOptions;
  node(res: ServerResponse): void;
  web(request: Request): Response;
}

const encoder = new TextEncoder();

const cases: readonly Case[] = [
  {
    name: 'a GET with credentials, a referrer, a query secret and a traceparent',
    request: {
      path: '/path?q=1&token=hunter2',
      auth: 'tobi:ferret',
      headers: {
        referer: 'http://example.com/?password=x',
        'user-agent': 'test-agent/1.0',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
    },
    node(res) {
      res.setHeader('content-length', '2');
      res.end('ok');
    },
    web: () => new Response('ok', { headers: { 'content-length': '2' } }),
  },
  {
    name: 'a POST answered 201 with a JSON body of known length',
    request: { method: 'POST', path: '/items', body: '{"a":1}' },
    node(res) {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-length', '8');
      res.end('{"id":1}');
    },
    web: () =>
      new Response('{"id":1}', {
        status: 201,
        headers: { 'content-type': 'application/json', 'content-length': '8' },
      }),
  },
  {
    name: 'a 404 without a body',
    request: { path: '/missing' },
    node(res) {
      res.statusCode = 404;
      res.end();
    },
    web: () => new Response(null, { status: 404 }),
  },
  {
    name: 'a 500 streamed in three pieces, no length announced',
    request: { path: '/stream', headers: { 'user-agent': 'agent "x" \x85 \xe9' } },
    node(res) {
      res.statusCode = 500;
      res.write('a');
      res.write('bb');
      res.end('ccc');
    },
    web: () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (const piece of ['a', 'bb', 'ccc']) controller.enqueue(encoder.encode(piece));
            controller.close();
          },
        }),
        { status: 500 },
      ),
  },
  {
    name: 'a 400 whose failure the application recorded',
    request: { method: 'POST', path: '/orders', body: '{' },
    node(res) {
      recordError(res.req, Object.assign(new SyntaxError('bad'), { type: 'entity.parse.failed' }));
      res.statusCode = 400;
      res.end();
    },
    web(request) {
      recordError(request, Object.assign(new SyntaxError('bad'), { type: 'entity.parse.failed' }));
      return new Response(null, { status: 400 });
    },
  },
  {
    name: 'a HEAD',
    request: { method: 'HEAD', path: '/' },
    node(res) {
      res.setHeader('content-length', '2');
      res.end();
    },
    web: () => new Response('ok', { headers: { 'content-length': '2' } }),
  },
];

/** The line through node:http and through the fetch door, for one format and one case. */
async function bothLines(
  format: string,
  exchange: Case,
  adapter: (typeof fetchAdapters)[number],
): Promise<[string, string]> {
  const node = await loggedServer((stream) => logger(format, { stream }), {
    handler: (_req, res) => exchange.node(res),
  });
  const capture = captureLines();
  const log = fetchLogger(format, { stream: capture.stream });
  const web = await serveFetch(
    log(async (request: Request) => exchange.web(request)),
    adapter,
  );
  try {
    await send(node, exchange.request);
    await send(web, exchange.request);
    const [nodeLine] = await node.capture.waitFor(1);
    const [webLine] = await capture.waitFor(1);
    return [nodeLine as string, webLine as string];
  } finally {
    await node.close();
    await web.close();
  }
}

/** A text line with its durations written `<t>`. */
function textShape(line: string): string {
  return line.replace(/\d+\.\d+ ms/g, '<t> ms');
}

/** The fields of a JSON line but its time, durations and address (and `msg`'s duration). */
function jsonShape(line: string): Record<string, unknown> {
  const fields = JSON.parse(line) as Record<string, unknown>;
  for (const key of [
    'time',
    '@timestamp',
    'duration_ms',
    'event.duration',
    'client.address',
    'client.ip',
  ]) {
    delete fields[key];
  }
  for (const key of ['msg', 'message']) {
    if (typeof fields[key] === 'string') fields[key] = textShape(fields[key] as string);
  }
  return fields;
}

for (const adapter of fetchAdapters) {
  describe(`node:http and a fetch handler on ${adapter} write the same line`, () => {
    for (const format of ['combined', 'common', 'dev', 'short', 'tiny']) {
      for (const exchange of cases) {
        it(`"${format}": ${exchange.name}`, async () => {
          const [nodeLine, webLine] = await bothLines(format, exchange, adapter);
          assert.equal(textShape(webLine), textShape(nodeLine));
        });
      }
    }
    for (const format of ['json', 'ecs']) {
      for (const exchange of cases) {
        it(`"${format}": ${exchange.name}`, async () => {
          const [nodeLine, webLine] = await bothLines(format, exchange, adapter);
          assert.deepEqual(jsonShape(webLine), jsonShape(nodeLine));
        });
      }
    }
  });
}
