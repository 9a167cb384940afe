// The smoke suite for other runtimes than Node (Bun, Deno): what users of those runtimes rely
// on, through the built package and the same server and client helpers as the Node suite.
//
//   bun test/runtimes/smoke.ts
//   deno run --allow-all --sloppy-imports test/runtimes/smoke.ts
//   node --import tsx test/runtimes/smoke.ts        (the same checks on Node, for comparison)
//
// Neither runtime runs Node's test runner completely: ./runner.ts runs the checks.
// scripts/ci.mjs runs it on each runtime, with ./web.ts (the Web door's suite).
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import logger from '../../entries/logger.mjs';
import parsers from '../../entries/parsers.mjs';
import { abandon, send } from '../helpers/client.js';
import { captureLines } from '../helpers/lines.js';
import {
  type Framework,
  frameworksOver,
  type Middleware,
  startServer,
  type Transport,
  transports,
} from '../helpers/server.js';
import { runChecks } from './runner.js';

const checks: Array<{ name: string; run: () => Promise<void> }> = [];
const check = (name: string, run: () => Promise<void>) => checks.push({ name, run });

/** A server with a logger writing `format` to a capture, then `parsers`, then an echo. */
async function loggedParsing(
  [transport, framework]: readonly [Transport, Framework],
  format: string,
  middleware: readonly Middleware[] = [],
) {
  const capture = captureLines();
  const server = await startServer({
    transport,
    framework,
    middleware: [logger(format, { stream: capture.stream }) as Middleware, ...middleware],
  });
  return { server, capture };
}

const DATE = String.raw`\[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]`;
const ADDRESS = String.raw`(?:::ffff:)?127\.0\.0\.1`;

/** One request line of each predefined format, as its shape must be on every runtime. */
function formatLines(version: string): Readonly<Record<string, RegExp>> {
  const request = `POST /f\\?q=1 HTTP/${version.replace('.', '\\.')}`;
  return {
    combined: new RegExp(`^${ADDRESS} - - ${DATE} "${request}" 200 \\S+ "-" "-"$`),
    common: new RegExp(`^${ADDRESS} - - ${DATE} "${request}" 200 \\S+$`),
    // Colours are on unless NO_COLOR is set: the line is matched without its escape sequences.
    dev: /^POST \/f\?q=1 200 [\d.]+ ms - \S+$/,
    short: new RegExp(`^${ADDRESS} - ${request} 200 \\S+ - [\\d.]+ ms$`),
    tiny: /^POST \/f\?q=1 200 \S+ - [\d.]+ ms$/,
  };
}

for (const transport of transports) {
  for (const framework of frameworksOver(transport)) {
    checksOver([transport, framework]);
  }
}

/** Every check, over one transport in one framework. */
function checksOver(host: readonly [Transport, Framework]): void {
  const [transport, framework] = host;
  const on = `${transport}, ${framework}`;
  const version = transport === 'h2' || transport === 'h2-http1' ? '2.0' : '1.1';
  for (const [format, shape] of Object.entries(formatLines(version))) {
    check(`${on}: the ${format} line`, async () => {
      const { server, capture } = await loggedParsing(host, format);
      try {
        await send(server, { path: '/f?q=1', body: 'x', headers: { 'content-type': 'a/b' } });
        const [line] = await capture.waitFor(1);
        assert.match((line ?? '').replace(/\x1b\[\d+m/g, ''), shape);
      } finally {
        await server.close();
      }
    });
  }

  for (const format of ['json', 'ecs']) {
    check(`${on}: the ${format} line`, async () => {
      const { server, capture } = await loggedParsing(host, format);
      try {
        await send(server, { path: '/j', body: 'x', headers: { 'content-type': 'a/b' } });
        const [line] = await capture.waitFor(1);
        const record = JSON.parse(line ?? '') as Record<string, unknown>;
        assert.equal(record['http.request.method'], 'POST');
        assert.equal(record['http.response.status_code'], 200);
      } finally {
        await server.close();
      }
    });
  }

  const bodies = [
    ['json', parsers.json(), 'application/json', '{"a":[1,"é"]}', '{"a":[1,"é"]}'],
    [
      'urlencoded',
      parsers.urlencoded(),
      'application/x-www-form-urlencoded',
      'a=1&b=%C3%A9',
      '{"a":"1","b":"é"}',
    ],
    ['text', parsers.text(), 'text/plain; charset=utf-8', 'hé', '"hé"'],
    ['raw', parsers.raw(), 'application/octet-stream', 'ab', 'buf:6162'],
  ] as const;
  for (const [name, parser, type, body, expected] of bodies) {
    check(`${on}: a ${name} body`, async () => {
      const { server } = await loggedParsing(host, 'tiny', [parser as Middleware]);
      try {
        const reply = await send(server, { body, headers: { 'content-type': type } });
        assert.equal(reply.text, expected);
      } finally {
        await server.close();
      }
    });
  }

  check(`${on}: read, the promise form, with a schema and its 422`, async () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'smoke',
        validate: (value: unknown) => {
          const a = (value as { a?: unknown }).a;
          return typeof a === 'number'
            ? { value: { doubled: a * 2 } }
            : { issues: [{ message: 'a must be a number', path: [{ key: 'a' }] }] };
        },
      },
    };
    const read: Middleware = (req, res, next) => {
      parsers.json.read(req, { schema, res }).then((body) => {
        (req as { body?: unknown }).body = body;
        next();
      }, next);
    };
    const { server } = await loggedParsing(host, 'tiny', [read]);
    try {
      const headers = { 'content-type': 'application/json' };
      assert.equal((await send(server, { body: '{"a":2}', headers })).text, '{"doubled":4}');
      const refused = await send(server, { body: '{"a":"x"}', headers });
      assert.equal(refused.status, 422);
      assert.equal(refused.text, '[entity.validation.failed] invalid request body: 1 issue, at a');
    } finally {
      await server.close();
    }
  });

  check(`${on}: a gzip body`, async () => {
    const { server } = await loggedParsing(host, 'tiny', [parsers.json() as Middleware]);
    try {
      const reply = await send(server, {
        body: gzipSync('{"zipped":true}'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      assert.equal(reply.text, '{"zipped":true}');
    } finally {
      await server.close();
    }
  });

  check(`${on}: limits, announced and counted`, async () => {
    const { server, capture } = await loggedParsing(host, ':status', [
      parsers.text({ limit: 10 }) as Middleware,
    ]);
    try {
      const announced = await send(server, {
        body: 'x'.repeat(11),
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(announced.status, 413);
      assert.match(announced.text, /^\[entity\.too\.large\]/);
      // No length announced: chunked on HTTP/1.1, plain DATA frames on HTTP/2.
      const counted = await send(server, {
        body: ['x'.repeat(6), 'x'.repeat(6)],
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(counted.status, 413);
      assert.deepEqual(await capture.waitFor(2), ['413', '413']);
    } finally {
      await server.close();
    }
  });

  check(
    `${on}: a client that leaves mid-body is logged with the application's answer`,
    async () => {
      const { server, capture } = await loggedParsing(host, ':status', [
        parsers.json() as Middleware,
      ]);
      try {
        await abandon(server, { when: 'body' });
        const outcome = await server.nextOutcome();
        assert.equal((outcome.error as { type?: unknown }).type, 'request.aborted');
        assert.deepEqual(await capture.waitFor(1, 5000), ['400']);
      } finally {
        await server.close();
      }
    },
  );
}

await runChecks('httpware smoke suite', checks);
