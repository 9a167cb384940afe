// The logger over every transport users serve it on: node:http, node:https, and node:http2's
// compatibility API with and without allowHTTP1 (reached by HTTP/2 clients, and over HTTP/1.1
// too when it allows it), in every framework that can serve each, with real clients. The same
// behaviours everywhere: morgan's lines byte for byte, the JSON fields, times, a client that
// goes away, `immediate`, escaping, the writeHead wrapper, and no warning.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import morgan from 'morgan';
import { logger } from '../../src/logger/index.js';
import { parsers } from '../../src/parsers/index.js';
import { rawControl } from '../helpers/hostile.js';
import {
  abandon,
  captureLines,
  type Framework,
  frameworksOver,
  type Handler,
  type Middleware,
  type SendOptions,
  send,
  startServer,
  type Transport,
  transports,
} from '../helpers/index.js';
import { fixTime, type LoggedServer, loggedServer, maskTimes, ownKeys } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const FORMATS = ['combined', 'common', 'dev', 'short', 'tiny'] as const;

interface Host {
  readonly transport: Transport;
  readonly framework: Framework;
  /** The protocol the client speaks (an h2-http1 server is reached both ways). */
  readonly protocol: 'http1' | 'h2';
}

const hosts: Host[] = transports.flatMap((transport) =>
  frameworksOver(transport).flatMap((framework) => {
    const protocols =
      transport === 'h2' ? ['h2'] : transport === 'h2-http1' ? ['h2', 'http1'] : ['http1'];
    return protocols.map((protocol) => ({ transport, framework, protocol }) as Host);
  }),
);

const warnings = captureWarnings();

/** Asserts the server's logger wrote exactly `line`, and nothing more a moment later. */
async function loggedOnce(server: LoggedServer, line: string): Promise<void> {
  assert.deepEqual(await server.capture.waitFor(1), [line]);
  await delay(50);
  assert.equal(server.capture.lines.length, 1, 'logged once');
}
after(() => assert.deepEqual(warnings.total(), 0, 'no warning printed or taken'));

for (const host of hosts) {
  const { transport, framework, protocol } = host;
  const h2 = protocol === 'h2';
  const on = { transport, framework };
  const request = (options: SendOptions = {}) => ({ ...options, protocol });

  describe(`the logger over ${transport} (${protocol} client) in ${framework}`, () => {
    let undo: () => void = () => {};
    beforeEach(() => {
      undo = fixTime();
    });
    afterEach(() => undo());

    it('writes every predefined format byte-identical to morgan', async () => {
      for (const format of FORMATS) {
        const ours = await loggedServer((stream) => logger(format, { stream }), on);
        const theirs = await loggedServer(
          (stream) => morgan(format, { stream }) as unknown as Middleware,
          on,
        );
        try {
          const options = request({
            path: '/p?q=1',
            auth: 'tobi:ferret',
            headers: { referer: 'http://example.com/', 'user-agent': 'agent/1.0' },
          });
          await send(ours, options);
          await send(theirs, options);
          const [mine] = await ours.capture.waitFor(1);
          const [reference] = await theirs.capture.waitFor(1);
          assert.equal(maskTimes(mine ?? ''), maskTimes(reference ?? ''), format);
        } finally {
          await ours.close();
          await theirs.close();
        }
      }
    });

    it('names the HTTP version as morgan does: HTTP/2.0 for HTTP/2', async () => {
      const server = await loggedServer((stream) => logger('common', { stream }), on);
      try {
        await send(server, request({ path: '/v' }));
        const [line] = await server.capture.waitFor(1);
        assert.match(line ?? '', h2 ? / HTTP\/2\.0" 200 2$/ : / HTTP\/1\.1" 200 2$/);
      } finally {
        await server.close();
      }
    });

    for (const [format, keys] of [
      ['json', { size: 'http.response.body.size', version: 'network.protocol.version' }],
      ['ecs', { size: 'http.response.body.bytes', version: 'http.version' }],
    ] as const) {
      it(`writes the ${format} fields: status, size, protocol version, address, duration`, async () => {
        const server = await loggedServer((stream) => logger(format, { stream }), on);
        try {
          await send(server, request({ path: '/j?x=1', headers: { 'user-agent': 'ua/2' } }));
          const [line] = await server.capture.waitFor(1);
          const record = JSON.parse(line ?? '') as Record<string, unknown>;
          assert.equal(record['http.request.method'], 'GET');
          assert.equal(record['url.path'], '/j');
          assert.equal(record['url.query'], 'x=1');
          assert.equal(record['http.response.status_code'], 200);
          assert.equal(record[keys.size], 2);
          // OpenTelemetry names HTTP/2 "2"; ECS keeps the version as Node gives it, "2.0".
          const version = h2 ? (format === 'json' ? '2' : '2.0') : '1.1';
          assert.equal(record[keys.version], version);
          assert.match(
            String(record[format === 'json' ? 'client.address' : 'client.ip']),
            /^(::ffff:)?127\.0\.0\.1$/,
          );
          assert.equal(record['user_agent.original'], 'ua/2');
          assert.equal(
            typeof record[format === 'json' ? 'duration_ms' : 'event.duration'],
            'number',
          );
        } finally {
          await server.close();
        }
      });
    }

    it('gives the body size of a Content-Length given to writeHead', async () => {
      const server = await loggedServer((stream) => logger('json', { stream }), {
        ...on,
        handler: (_req, res) => res.writeHead(200, { 'content-length': '5' }).end('hello'),
      });
      try {
        await send(server, request());
        const [line] = await server.capture.waitFor(1);
        assert.equal(JSON.parse(line ?? '')['http.response.body.size'], 5);
      } finally {
        await server.close();
      }
    });

    it('gives the size of a body given whole to end(), announced or not', async () => {
      // node:http announces it; node:http2 sends it in DATA frames without one, and counts
      // the bytes nowhere the compatibility API shows: there the logger counts them.
      const server = await loggedServer((stream) => logger('json', { stream }), {
        ...on,
        handler: (_req, res) => res.end('hello'),
      });
      try {
        const reply = await send(server, request());
        const [line] = await server.capture.waitFor(1);
        const size = JSON.parse(line ?? '')['http.response.body.size'];
        assert.equal(reply.headers['content-length'], h2 ? undefined : '5');
        assert.equal(size, 5);
      } finally {
        await server.close();
      }
    });

    it('writes :response-time and :total-time', async () => {
      const server = await loggedServer(
        (stream) => logger(':status :response-time :total-time[1]', { stream }),
        on,
      );
      try {
        await send(server, request());
        // The fixed clock steps 1.5 ms a reading: arrival, head, end.
        assert.deepEqual(await server.capture.waitFor(1), ['200 1.500 3.0']);
      } finally {
        await server.close();
      }
    });

    it('logs a client gone mid-body once, with the 400 the application answered', async () => {
      // morgan writes this line when the socket closes, before the body reader has failed
      // and the application has answered: it logs "-" (docs/migrating.md).
      const server = await loggedServer(
        (stream) => logger(':method :url :status :total-time', { stream }),
        { ...on, after: [parsers.json()] },
      );
      try {
        await abandon(server, { path: '/upload', when: 'body', protocol });
        const outcome = await server.nextOutcome();
        assert.equal((outcome.error as { status?: unknown }).status, 400);
        await loggedOnce(server, 'POST /upload 400 -');
      } finally {
        await server.close();
      }
    });

    it('logs a client gone mid-body that nobody answered once, with status -', async () => {
      const server = await loggedServer((stream) => logger(':method :url :status', { stream }), {
        ...on,
        handler: () => undefined,
      });
      try {
        await abandon(server, { path: '/never', when: 'body', protocol });
        await loggedOnce(server, 'POST /never -');
      } finally {
        await server.close();
      }
    });

    it('logs a client gone mid-response once, with the status of the head it got', async () => {
      const server = await loggedServer(
        (stream) => logger(':url :status :res[content-length]', { stream }),
        {
          ...on,
          // The head and part of the body; the rest never comes.
          handler: (_req, res) => {
            res.writeHead(200, { 'content-length': '100' });
            res.write('partial');
          },
        },
      );
      try {
        await abandon(server, { path: '/cut', when: 'head', protocol });
        await loggedOnce(server, '/cut 200 100');
      } finally {
        await server.close();
      }
    });

    it('with immediate, writes the line on arrival with no response values', async () => {
      let answered = false;
      const server = await loggedServer((stream) => logger('tiny', { stream, immediate: true }), {
        ...on,
        handler: (_req, res) => {
          answered = true;
          res.end('ok');
        },
      });
      try {
        await send(server, request({ path: '/now' }));
        assert.deepEqual(await server.capture.waitFor(1), ['GET /now - - - - ms']);
        assert.ok(answered);
      } finally {
        await server.close();
      }
    });

    it('escapes hostile header values in text and JSON lines', async () => {
      // What every client can send in a header: quotes, backslashes, and C1 bytes (obs-text).
      const agent = 'x"y\\z\x85\x9b\xa0';
      let seen: string | undefined;
      const text = captureLines();
      const json = captureLines();
      const server = await startServer({
        ...on,
        middleware: [
          logger('combined', { stream: text.stream }),
          logger('json', { stream: json.stream }),
        ],
        handler: (req, res) => {
          seen = req.headers['user-agent'];
          res.end('ok');
        },
      });
      try {
        await send(server, request({ headers: { 'user-agent': agent } }));
        const [line] = await text.waitFor(1);
        const [record] = await json.waitFor(1);
        assert.ok(seen !== undefined);
        for (const written of [line ?? '', record ?? '']) assert.doesNotMatch(written, rawControl);
        assert.ok(line?.endsWith(' "x\\"y\\\\z\\u0085\\u009b\u00a0"'), line);
        assert.equal(JSON.parse(record ?? '')['user_agent.original'], seen);
      } finally {
        await server.close();
      }
    });

    it('wraps writeHead: arguments and result pass through, nothing else is added', async () => {
      const snapshots: Array<{ req: string[]; res: string[]; resEnumerable: string[] }> = [];
      const handler: Handler = (req: IncomingMessage, res: ServerResponse) => {
        snapshots.push({
          req: ownKeys(req),
          res: ownKeys(res),
          resEnumerable: Object.keys(res).sort(),
        });
        res.writeHead(201, { 'x-a': '1' }).end('made');
      };
      const plain = await startServer({ ...on, handler });
      const capture = captureLines();
      const logged = await startServer({
        ...on,
        middleware: [logger(':status :res[x-a] :response-time', { stream: capture.stream })],
        handler,
      });
      try {
        await send(plain, request());
        const reply = await send(logged, request());
        assert.equal(reply.status, 201);
        assert.equal(reply.headers['x-a'], '1');
        assert.equal(reply.text, 'made');
        assert.deepEqual(await capture.waitFor(1), ['201 1 1.500']);
        const [without, withLogger] = snapshots;
        assert.ok(without && withLogger);
        assert.deepEqual(withLogger.req, without.req);
        assert.deepEqual(
          withLogger.resEnumerable.filter((key) => !without.resEnumerable.includes(key)),
          ['writeHead'],
        );
        assert.deepEqual(
          withLogger.res.filter((key) => !without.res.includes(key)),
          ['writeHead'],
        );
      } finally {
        await plain.close();
        await logged.close();
      }
    });
  });
}
