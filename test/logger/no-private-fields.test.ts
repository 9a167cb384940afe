// The logger adds nothing the application can see on req/res: no `_startAt`, no
// `_remoteAddress`, nothing else. The one addition, made only for formats that read the head
// (its time or its headers), is an own `writeHead` that passes everything through: a plain
// property, as morgan's on-headers installs its own (docs/logger.md says why); formats that
// read the body's size add an own `write` and `end`, likewise.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { captureLines, frameworks, send, startServer } from '../helpers/index.js';
import { ownKeys } from '../helpers/logger.js';

// on-headers (morgan's dependency, untyped) is the usual other wrapper of writeHead.
const onHeaders = createRequire(import.meta.url)('on-headers') as (
  res: ServerResponse,
  listener: (this: ServerResponse) => void,
) => void;

interface Snapshot {
  reqKeys: string[];
  resKeys: string[];
  reqEnumerable: string[];
  resEnumerable: string[];
}

async function snapshot(
  framework: (typeof frameworks)[number],
  format: string | undefined,
): Promise<Snapshot> {
  let seen: Snapshot | undefined;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen = {
      reqKeys: ownKeys(req),
      resKeys: ownKeys(res),
      reqEnumerable: Object.keys(req).sort(),
      resEnumerable: Object.keys(res).sort(),
    };
    res.end('ok');
  };
  const server = await startServer({
    framework,
    middleware: format === undefined ? [] : [logger(format, { stream: captureLines().stream })],
    handler,
  });
  try {
    await send(server);
  } finally {
    await server.close();
  }
  assert.ok(seen);
  return seen;
}

for (const framework of frameworks) {
  describe(`no private fields in ${framework}`, () => {
    it('a format that does not read the head leaves req and res as they were', async () => {
      const without = await snapshot(framework, undefined);
      const withLogger = await snapshot(
        framework,
        ':remote-addr :remote-user [:date] ":method :url" :status :referrer :user-agent',
      );
      assert.deepEqual(withLogger, without);
    });

    it(':method :status :total-time (reading only the end of the response) leaves req and res as they were', async () => {
      const without = await snapshot(framework, undefined);
      assert.deepEqual(await snapshot(framework, ':method :status :total-time'), without);
    });

    // The body's size of a response that announces no length is the bytes written, counted
    // by wrappers of write and end (docs/logger.md says why they are installed on arrival).
    for (const format of ['json', 'ecs', ':res-body-bytes']) {
      it(`${format} (reading the body's size) adds only an own write and end on res`, async () => {
        const without = await snapshot(framework, undefined);
        const withLogger = await snapshot(framework, format);
        assert.deepEqual(withLogger.reqKeys, without.reqKeys);
        const added = (after: string[], before: string[]) =>
          after.filter((key) => !before.includes(key));
        assert.deepEqual(added(withLogger.resKeys, without.resKeys), ['end', 'write']);
        assert.deepEqual(added(withLogger.resEnumerable, without.resEnumerable), ['end', 'write']);
      });
    }

    it('a format reading the head adds only an own writeHead on res', async () => {
      const without = await snapshot(framework, undefined);
      const withLogger = await snapshot(framework, 'dev');
      assert.deepEqual(withLogger.reqKeys, without.reqKeys);
      assert.deepEqual(withLogger.reqEnumerable, without.reqEnumerable);
      const added = (after: string[], before: string[]) =>
        after.filter((key) => !before.includes(key));
      assert.deepEqual(added(withLogger.resKeys, without.resKeys), ['writeHead']);
      assert.deepEqual(added(withLogger.resEnumerable, without.resEnumerable), ['writeHead']);
    });
  });
}

describe('the writeHead wrapper', () => {
  it('passes arguments and the return value through (chaining still works)', async () => {
    const capture = captureLines();
    const server = await startServer({
      middleware: [logger(':status :res[x-a] :response-time', { stream: capture.stream })],
      handler: (_req, res) => {
        res.writeHead(201, 'Made', { 'x-a': '1' }).end('done');
      },
    });
    try {
      const reply = await send(server);
      assert.equal(reply.status, 201);
      assert.equal(reply.headers['x-a'], '1');
      const [line] = await capture.waitFor(1);
      assert.match(line ?? '', /^201 1 \d+\.\d{3}$/);
    } finally {
      await server.close();
    }
  });

  it('composes with another writeHead wrapper installed before or after it', async () => {
    const capture = captureLines();
    const calls: string[] = [];
    const server = await startServer({
      middleware: [
        (_req, res, next) => {
          onHeaders(res, () => calls.push('before'));
          next();
        },
        logger(':status :response-time', { stream: capture.stream }),
        (_req, res, next) => {
          onHeaders(res, function (this: ServerResponse) {
            calls.push('after');
            this.setHeader('x-added', 'yes');
          });
          next();
        },
      ],
      handler: (_req, res) => res.end('x'),
    });
    try {
      const reply = await send(server);
      assert.equal(reply.headers['x-added'], 'yes');
      assert.deepEqual(calls, ['after', 'before']);
      const [line] = await capture.waitFor(1);
      assert.match(line ?? '', /^200 \d+\.\d{3}$/);
    } finally {
      await server.close();
    }
  });

  it('several loggers timing one response each wrap it in turn, and each line is timed', async () => {
    const first = captureLines();
    const second = captureLines();
    const server = await startServer({
      middleware: [
        logger(':response-time', { stream: first.stream }),
        logger('tiny', { stream: second.stream }),
      ],
      handler: (_req, res) => res.end('x'),
    });
    try {
      await send(server);
      assert.match((await first.waitFor(1))[0] ?? '', /^\d+\.\d{3}$/);
      assert.match((await second.waitFor(1))[0] ?? '', /^GET \/ 200 - - \d+\.\d{3} ms$/);
    } finally {
      await server.close();
    }
  });
});
