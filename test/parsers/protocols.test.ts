// One behaviour suite for the parsers over every transport: HTTP/1.1 in the clear and over TLS,
// HTTP/2 through node:http2's compatibility API, and the same HTTP/2 server taking HTTP/1.1
// clients (allowHTTP1). Each request must end the same way whatever carries it: the body
// parsed, or the typed error (status and `type`) given to `next` exactly once, with no warning
// printed and the server still serving.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import bodyParser from 'body-parser';
import { parsers } from '../../src/index.js';
import {
  frameworksOver,
  type Outcome,
  type SendOptions,
  send,
  sendPartial,
  startServer,
  type TestServer,
  type Transport,
  transports,
} from '../helpers/index.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();
afterEach(() => {
  assert.deepEqual(
    warnings.all().map((w) => `${w.name}: ${w.message}`),
    [],
    'no warning during the request',
  );
});

const LIMIT = 1024;
const stack = [
  parsers.json({ limit: LIMIT }),
  parsers.urlencoded({ limit: LIMIT }),
  parsers.text({ limit: LIMIT }),
  parsers.raw({ limit: LIMIT }),
];

/** Where a request goes: a transport, and for allowHTTP1 the protocol the client speaks. */
interface Route {
  readonly transport: Transport;
  readonly protocol?: 'http1' | 'h2';
}
const routes: Route[] = transports.flatMap((transport): Route[] =>
  transport === 'h2-http1'
    ? [
        { transport, protocol: 'h2' },
        { transport, protocol: 'http1' },
      ]
    : [{ transport }],
);

const json = '{"name":"论","list":[1,2]}';
const parsedJson = { name: '论', list: [1, 2] };

/** A body in two pieces: no Content-Length (chunked on HTTP/1.1, plain DATA frames on HTTP/2). */
const streamed = (text: string | Buffer): Buffer[] => {
  const bytes = Buffer.from(text);
  const half = Math.ceil(bytes.length / 2);
  return [bytes.subarray(0, half), bytes.subarray(half)];
};

interface Case {
  readonly name: string;
  readonly headers: Record<string, string | number>;
  readonly body: SendOptions['body'];
  /** What `req.body` must be; or the error's status and type. */
  readonly expect: { body: unknown } | { status: number; type: string };
}

const over = 'x'.repeat(LIMIT + 1);
const corruptGzip = Buffer.concat([zlib.gzipSync(json).subarray(0, 12), Buffer.from('garbage')]);
const text = { 'content-type': 'text/plain' };
const jsonType = { 'content-type': 'application/json' };
const gzipped = (type: Record<string, string>) => ({ ...type, 'content-encoding': 'gzip' });
/** Requests every transport must refuse alike: name, headers, body, status, error type. */
const refusals: Array<[string, Record<string, string>, SendOptions['body'], number, string]> = [
  ['a Content-Length over the limit (refused unread)', text, over, 413, 'entity.too.large'],
  [
    'a body without a Content-Length that grows over the limit (counted)',
    text,
    streamed(over),
    413,
    'entity.too.large',
  ],
  [
    'a gzip body inflating over the limit (counted after inflation)',
    gzipped(text),
    zlib.gzipSync(over),
    413,
    'entity.too.large',
  ],
  ['corrupt gzip', gzipped(jsonType), corruptGzip, 400, 'entity.inflate.failed'],
  [
    'an unknown content coding',
    { ...jsonType, 'content-encoding': 'compress' },
    json,
    415,
    'encoding.unsupported',
  ],
  [
    'stacked content codings',
    { ...jsonType, 'content-encoding': 'gzip, gzip' },
    zlib.gzipSync(zlib.gzipSync(json)),
    415,
    'encoding.unsupported',
  ],
  [
    'a charset json does not take',
    { 'content-type': 'application/json; charset=koi8-r' },
    json,
    415,
    'charset.unsupported',
  ],
  [
    'a charset that does not exist',
    { 'content-type': 'text/plain; charset=no-such-charset' },
    'hi',
    415,
    'charset.unsupported',
  ],
  ['malformed json', jsonType, '{"a":', 400, 'entity.parse.failed'],
  [
    'a prototype key in json',
    jsonType,
    '{"__proto__":{"polluted":true},"a":1}',
    400,
    'entity.prototype.forbidden',
  ],
];

const cases: Case[] = [
  ...[
    ['json', 'application/json', json, parsedJson],
    ['urlencoded', 'application/x-www-form-urlencoded', 'a=1&b=%E8%AE%BA', { a: '1', b: '论' }],
    ['text', 'text/plain; charset=utf-8', '论 text', '论 text'],
    ['raw', 'application/octet-stream', 'raw\u0000', Buffer.from('raw\u0000')],
  ].flatMap(([kind, type, text, parsed]): Case[] => [
    {
      name: `${kind} with a Content-Length`,
      headers: { 'content-type': type as string },
      body: text as string,
      expect: { body: parsed },
    },
    {
      name: `${kind} without a Content-Length`,
      headers: { 'content-type': type as string },
      body: streamed(text as string),
      expect: { body: parsed },
    },
  ]),
  {
    name: 'an empty json body sent without a Content-Length',
    headers: { 'content-type': 'application/json' },
    body: [],
    expect: { body: {} },
  },
  ...(['gzip', 'deflate', 'br'] as const).flatMap((coding): Case[] => {
    const compressed =
      coding === 'gzip'
        ? zlib.gzipSync(json)
        : coding === 'deflate'
          ? zlib.deflateSync(json)
          : zlib.brotliCompressSync(json);
    const headers = { 'content-type': 'application/json', 'content-encoding': coding };
    return [
      { name: `${coding} inflated`, headers, body: compressed, expect: { body: parsedJson } },
      {
        name: `${coding} inflated without a Content-Length`,
        headers,
        body: streamed(compressed),
        expect: { body: parsedJson },
      },
    ];
  }),
  ...refusals.map(
    ([name, headers, body, status, type]): Case => ({
      name,
      headers,
      body,
      expect: { status, type },
    }),
  ),
  {
    name: 'a Content-Type of a thousand parameters',
    headers: {
      'content-type': `text/plain; ${Array.from({ length: 1000 }, (_, i) => `p${i}=v`).join('; ')}`,
    },
    body: 'hi',
    expect: { body: 'hi' },
  },
];

function assertOutcome(expect: Case['expect'], outcome: Outcome, status: number): void {
  assert.equal(outcome.nextCalls, 1, 'next called once');
  if ('body' in expect) {
    assert.equal(outcome.error, undefined);
    assert.deepEqual(outcome.body, expect.body);
    assert.equal(status, 200);
    return;
  }
  const err = outcome.error as { status?: unknown; type?: unknown };
  assert.equal(err.type, expect.type);
  assert.equal(err.status, expect.status);
  assert.equal(status, expect.status);
}

for (const route of routes) {
  const via = route.protocol ? `${route.transport} (${route.protocol})` : route.transport;
  for (const framework of frameworksOver(route.transport)) {
    describe(`parsers over ${via} in ${framework}`, () => {
      let server: TestServer;
      before(async () => {
        server = await startServer({ transport: route.transport, framework, middleware: stack });
      });
      after(() => server.close());
      const protocol = route.protocol === undefined ? {} : { protocol: route.protocol };

      for (const c of cases) {
        it(c.name, async () => {
          const reply = await send(server, {
            method: 'POST',
            headers: c.headers,
            ...(c.body === undefined ? {} : { body: c.body }),
            ...protocol,
          });
          assertOutcome(c.expect, await server.nextOutcome(), reply.status);
        });
      }

      it('a GET without a body leaves req.body undefined without waiting for one', async () => {
        const reply = await send(server, {
          headers: { 'content-type': 'application/json' },
          ...protocol,
        });
        assertOutcome({ body: undefined }, await server.nextOutcome(), reply.status);
      });

      // Node's fetch speaks HTTP/1.1 only, and trusts no self-signed certificate: plain HTTP.
      if (route.transport === 'http') {
        for (const [how, body] of [
          ['with a Content-Length', json],
          ['streamed', new Blob([json]).stream()],
        ] as const) {
          it(`json sent by fetch, ${how}`, async () => {
            const response = await fetch(server.origin, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
              duplex: 'half',
            } as RequestInit);
            await response.arrayBuffer();
            assertOutcome({ body: parsedJson }, await server.nextOutcome(), response.status);
          });
        }
      }

      it('a client reset mid-body gives 400 request.aborted', async () => {
        const reply = await sendPartial(server, {
          headers: { 'content-type': 'application/json', 'content-length': 100 },
          body: ['{"a":'],
          abortAfterMs: 50,
          ...protocol,
        });
        assert.equal(reply.ended, 'aborted');
        const outcome = await server.nextOutcome();
        assert.equal(outcome.nextCalls, 1);
        const err = outcome.error as Record<string, unknown>;
        assert.deepEqual(
          [err.type, err.status, err.code],
          ['request.aborted', 400, 'ECONNABORTED'],
        );
      });

      for (const abort of ['stream', 'connection'] as const) {
        it(`a client that drops the ${abort} mid-body, without a Content-Length, gives 400 request.aborted`, async () => {
          await sendPartial(server, {
            headers: { 'content-type': 'text/plain' },
            body: ['some text'],
            abortAfterMs: 50,
            abort,
            ...protocol,
          });
          const outcome = await server.nextOutcome();
          assert.equal(outcome.nextCalls, 1);
          assert.equal((outcome.error as { type?: unknown }).type, 'request.aborted');
        });
      }

      it('an upload announced far over the limit is answered 413 at once, then no more of it is read', async () => {
        // HTTP/1.1: `Connection: close` and the connection closed after the response. HTTP/2,
        // where connection headers are forbidden: the stream reset with NO_ERROR after the
        // response (RFC 9113 sec 8.1), and the session left to its other streams.
        const reply = await sendPartial(server, {
          headers: { 'content-type': 'text/plain', 'content-length': 8 * 1024 * 1024 },
          body: ['x'.repeat(100)],
          ...protocol,
        });
        assert.equal(reply.status, 413);
        assert.equal(reply.ended, 'closed');
        if (reply.rstCode !== undefined) assert.equal(reply.rstCode, 0);
        assertOutcome({ status: 413, type: 'entity.too.large' }, await server.nextOutcome(), 413);
      });

      it('called next once for every request and is still serving', async () => {
        await assert.rejects(server.nextOutcome(100), /no outcome/);
        const reply = await send(server, {
          headers: { 'content-type': 'application/json' },
          body: '{"ok":true}',
          ...protocol,
        });
        assert.equal(reply.text, '{"ok":true}');
        await server.nextOutcome();
      });
    });
  }
}

describe('an HTTP/2 body without Content-Length (a deliberate difference from body-parser)', () => {
  for (const [name, middleware, expected] of [
    ['body-parser 2.4.0 leaves it unread', bodyParser.json(), undefined],
    ['httpware reads it', parsers.json(), parsedJson],
  ] as const) {
    it(name, async () => {
      const server = await startServer({ transport: 'h2', middleware: [middleware] });
      try {
        const reply = await send(server, { headers: jsonType, body: streamed(json) });
        assertOutcome({ body: expected }, await server.nextOutcome(), reply.status);
      } finally {
        await server.close();
      }
    });
  }
});
