// `slow` (a threshold in ms: always logged, level raised, `:slow` and the `slow` field) and
// `level` (a function giving each line's level, `silent` writing nothing).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setClock } from '../../src/logger/core/timing.js';
import { fetchLogger, logger } from '../../src/logger/index.js';
import type { LogLevel } from '../../src/logger/types.js';
import { serveFetch } from '../helpers/fetch.js';
import { send } from '../helpers/index.js';
import { captureLines } from '../helpers/lines.js';
import { loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

// The logger's clock, advanced by the handler: `/wait/<ms>` takes that long.
let now = 0;
let restore: () => unknown;
before(() => {
  const previous = setClock(() => now);
  restore = () => setClock(previous);
});
after(() => restore());

const waitingHandler = (
  req: { url?: string | undefined },
  res: { statusCode: number; end(): void },
) => {
  const [, kind, value] = `${req.url}`.split('/');
  if (kind === 'wait') now += Number(value);
  if (kind === 'status') res.statusCode = Number(value);
  res.end();
};

/** An OpenTelemetry LoggerProvider that keeps what is emitted. */
function recordingProvider() {
  const records: Record<string, unknown>[] = [];
  const loggerProvider = {
    getLogger: () => ({
      emit: (record: object) => records.push(record as Record<string, unknown>),
    }),
  };
  return { records, loggerProvider };
}

describe('slow', () => {
  it(':slow is true from the threshold on, and - below it', async () => {
    const server = await loggedServer((stream) => logger(':url :slow', { stream, slow: 500 }), {
      handler: waitingHandler,
    });
    try {
      for (const path of ['/wait/499', '/wait/500', '/wait/2000']) await send(server, { path });
      assert.deepEqual(await server.capture.waitFor(3), [
        '/wait/499 -',
        '/wait/500 true',
        '/wait/2000 true',
      ]);
    } finally {
      await server.close();
    }
  });

  it('a slow success is a warn line with slow: true in json', async () => {
    const server = await loggedServer((stream) => logger('json', { stream, slow: 100 }), {
      handler: waitingHandler,
    });
    try {
      await send(server, { path: '/wait/150' });
      await send(server, { path: '/wait/10' });
      const [slow, quick] = (await server.capture.waitFor(2)).map((l) => JSON.parse(l));
      assert.equal(slow.level, 'warn');
      assert.equal(slow.slow, true);
      assert.equal(slow.duration_ms, 150);
      assert.equal(quick.level, 'info');
      assert.equal('slow' in quick, false);
    } finally {
      await server.close();
    }
  });

  it('a slow failure keeps its error level in ecs', async () => {
    const server = await loggedServer((stream) => logger('ecs', { stream, slow: 100 }), {
      handler: (_req, res) => {
        now += 300;
        res.statusCode = 503;
        res.end();
      },
    });
    try {
      await send(server, { path: '/' });
      const [line] = (await server.capture.waitFor(1)).map((l) => JSON.parse(l));
      assert.equal(line['log.level'], 'error');
      assert.equal(line.slow, true);
      assert.equal(line['event.duration'], 300e6);
    } finally {
      await server.close();
    }
  });

  it('a slow request is a WARN record with the attribute slow', async () => {
    const { records, loggerProvider } = recordingProvider();
    const server = await loggedServer(
      (stream) => logger('json', { stream, slow: 100, otel: { loggerProvider } }),
      { handler: waitingHandler },
    );
    try {
      await send(server, { path: '/wait/200' });
      await server.capture.waitFor(1);
      const [record] = records;
      assert.equal(record?.severityText, 'WARN');
      assert.equal(record?.severityNumber, 13);
      const attributes = record?.attributes as Record<string, unknown> | undefined;
      assert.equal(attributes?.slow, true);
    } finally {
      await server.close();
    }
  });

  it('fetchLogger marks a slow request too', async () => {
    const capture = captureLines();
    const log = fetchLogger(':url :slow', { stream: capture.stream, slow: 100 });
    const server = await serveFetch(
      log((request) => {
        if (request.url.endsWith('/slow')) now += 100;
        return new Response('ok');
      }),
    );
    try {
      await send(server, { path: '/slow' });
      await send(server, { path: '/quick' });
      assert.deepEqual(await capture.waitFor(2), ['/slow true', '/quick -']);
    } finally {
      await server.close();
    }
  });
});

describe('level', () => {
  it('gives the json level from the request and response', async () => {
    const server = await loggedServer(
      (stream) =>
        logger('json', {
          stream,
          level: (req, res) =>
            req.url === '/debug' ? 'debug' : res.statusCode === 404 ? 'info' : 'fatal',
        }),
      { handler: waitingHandler },
    );
    try {
      for (const path of ['/debug', '/status/404', '/status/200']) await send(server, { path });
      const levels = (await server.capture.waitFor(3)).map((l) => JSON.parse(l).level);
      assert.deepEqual(levels, ['debug', 'info', 'fatal']);
    } finally {
      await server.close();
    }
  });

  it('gives the ecs log.level', async () => {
    const server = await loggedServer((stream) => logger('ecs', { stream, level: () => 'trace' }));
    try {
      await send(server);
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(`${line}`)['log.level'], 'trace');
    } finally {
      await server.close();
    }
  });

  it('silent writes no line and no record', async () => {
    const { records, loggerProvider } = recordingProvider();
    const server = await loggedServer((stream) =>
      logger(':url', {
        stream,
        otel: { loggerProvider },
        level: (req) => (req.url === '/quiet' ? 'silent' : 'info'),
      }),
    );
    try {
      await send(server, { path: '/quiet' });
      await send(server, { path: '/said' });
      assert.deepEqual(await server.capture.waitFor(1), ['/said']);
      assert.equal(records.length, 1);
    } finally {
      await server.close();
    }
  });

  it('a slow request is logged at warn even when the level function says silent', async () => {
    const server = await loggedServer(
      (stream) => logger('json', { stream, slow: 100, level: () => 'silent' }),
      { handler: waitingHandler },
    );
    try {
      await send(server, { path: '/status/200' });
      await send(server, { path: '/wait/200' });
      const [line] = await server.capture.waitFor(1);
      const fields = JSON.parse(`${line}`);
      assert.deepEqual([fields.level, fields.slow, server.capture.lines.length], ['warn', true, 1]);
    } finally {
      await server.close();
    }
  });

  it('gives the OpenTelemetry severity', async () => {
    const { records, loggerProvider } = recordingProvider();
    const levels: LogLevel[] = ['debug', 'error', 'fatal'];
    let next = 0;
    const server = await loggedServer((stream) =>
      logger('tiny', { stream, otel: { loggerProvider }, level: () => levels[next++] ?? 'info' }),
    );
    try {
      for (let i = 0; i < levels.length; i++) await send(server);
      await server.capture.waitFor(3);
      assert.deepEqual(
        records.map((r) => [r.severityNumber, r.severityText]),
        [
          [5, 'DEBUG'],
          [17, 'ERROR'],
          [21, 'FATAL'],
        ],
      );
    } finally {
      await server.close();
    }
  });

  it('a slow request given info by the function is raised to warn', async () => {
    const server = await loggedServer(
      (stream) => logger('json', { stream, slow: 100, level: () => 'info' }),
      { handler: waitingHandler },
    );
    try {
      await send(server, { path: '/wait/100' });
      const [line] = await server.capture.waitFor(1);
      assert.equal(JSON.parse(`${line}`).level, 'warn');
    } finally {
      await server.close();
    }
  });

  it('a function that throws or returns no level leaves the default, warning once', async () => {
    let call = 0;
    const server = await loggedServer(
      (stream) =>
        logger('json', {
          stream,
          level: () => {
            call++;
            if (call === 1) throw new Error('boom');
            return 'loud' as LogLevel;
          },
        }),
      { handler: waitingHandler },
    );
    try {
      await send(server, { path: '/status/200' });
      await send(server, { path: '/status/500' });
      const levels = (await server.capture.waitFor(2)).map((l) => JSON.parse(l).level);
      assert.deepEqual(levels, ['info', 'error']);
      assert.equal((await warnings.of('HTTPWARE_LOGGER_LEVEL')).length, 1);
    } finally {
      await server.close();
    }
  });

  it('fetchLogger writes the level the function gives', async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream, level: () => 'debug' });
    const server = await serveFetch(log(() => new Response('ok')));
    try {
      await send(server);
      const [line] = await capture.waitFor(1);
      assert.equal(JSON.parse(`${line}`).level, 'debug');
    } finally {
      await server.close();
    }
  });

  it('without the option, levels are as before: 5xx error, 4xx warn, else info', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }), {
      handler: waitingHandler,
    });
    try {
      for (const path of ['/status/503', '/status/404', '/status/302'])
        await send(server, { path });
      const levels = (await server.capture.waitFor(3)).map((l) => JSON.parse(l).level);
      assert.deepEqual(levels, ['error', 'warn', 'info']);
    } finally {
      await server.close();
    }
  });
});
