// The `otel` option in process: records through a LoggerProvider the application gives, what
// they carry for each kind of format, and the ways a broken SDK or a bad option cannot reach
// the requests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

function sdk() {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  return { exporter, loggerProvider };
}

/** The lines and records of requests to `paths` through a logger with `format` and `otel`. */
async function recorded(format: string, paths: readonly string[]) {
  const { exporter, loggerProvider } = sdk();
  const server = await loggedServer((stream) =>
    logger(format, { stream, otel: { loggerProvider } }),
  );
  try {
    for (const path of paths) await send(server, { path });
    const lines = await server.capture.waitFor(paths.length);
    return { lines, records: exporter.getFinishedLogRecords() };
  } finally {
    await server.close();
  }
}

describe('option otel with a loggerProvider', () => {
  it('emits one record per request under the scope httpware', async () => {
    const { records } = await recorded('json', ['/a', '/b']);
    assert.equal(records.length, 2);
    assert.deepEqual(
      records.map((r) => [r.instrumentationScope.name, r.attributes['url.path']]),
      [
        ['httpware', '/a'],
        ['httpware', '/b'],
      ],
    );
  });

  it("takes a text format's line as the body", async () => {
    const { lines, records } = await recorded('tiny', ['/tiny']);
    assert.equal(records[0]?.body, lines[0]);
    assert.equal(records[0]?.attributes['http.response.status_code'], 200);
  });

  it("takes the json format's msg as the body of an ecs logger's record", async () => {
    const { lines, records } = await recorded('ecs', ['/ecs']);
    assert.equal(records[0]?.body, JSON.parse(lines[0] as string).message);
  });

  it('carries the bytes of a chunked body, for a text format too', async () => {
    const { exporter, loggerProvider } = sdk();
    const server = await loggedServer(
      (stream) => logger('tiny', { stream, otel: { loggerProvider } }),
      {
        handler: (_req, res) => {
          res.write('chunk ');
          res.end('€');
        },
      },
    );
    try {
      await send(server);
      await server.capture.waitFor(1);
      const [record] = exporter.getFinishedLogRecords();
      assert.equal(record?.attributes['http.response.body.size'], 9);
    } finally {
      await server.close();
    }
  });

  it('masks the query in attributes as the json line does', async () => {
    const { lines, records } = await recorded('json', ['/q?access_token=secret&page=2']);
    assert.equal(records[0]?.attributes['url.query'], JSON.parse(lines[0] as string)['url.query']);
    assert.doesNotMatch(String(records[0]?.attributes['url.query']), /secret/);
  });

  it('emits no record for a request skip leaves out', async () => {
    const { exporter, loggerProvider } = sdk();
    const server = await loggedServer((stream) =>
      logger('json', { stream, otel: { loggerProvider }, skip: () => true }),
    );
    try {
      await send(server);
      await send(server);
      assert.equal(exporter.getFinishedLogRecords().length, 0);
      assert.deepEqual(server.capture.lines, []);
    } finally {
      await server.close();
    }
  });

  it('keeps the line and warns once when the SDK throws on emit', async () => {
    const loggerProvider = {
      getLogger: () => ({
        emit() {
          throw new Error('the SDK broke');
        },
      }),
    };
    const server = await loggedServer((stream) =>
      logger('json', { stream, otel: { loggerProvider } }),
    );
    try {
      const first = await send(server);
      const second = await send(server);
      assert.deepEqual([first.status, second.status], [200, 200]);
      assert.equal((await server.capture.waitFor(2)).length, 2);
      const reported = await warnings.of('HTTPWARE_LOGGER_OTEL');
      assert.equal(reported.length, 1);
      assert.match(reported[0]?.message ?? '', /the SDK broke/);
    } finally {
      await server.close();
    }
  });
});

describe('option otel: true', () => {
  it('warns once when no global LoggerProvider is registered', async () => {
    const server = await loggedServer((stream) => logger('json', { stream, otel: true }));
    try {
      await send(server);
      await send(server);
      assert.equal((await server.capture.waitFor(2)).length, 2);
      assert.equal((await warnings.of('HTTPWARE_LOGGER_OTEL_PROVIDER')).length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('option otel, when the logger is made', () => {
  for (const bad of ['yes', 1, {}, { loggerProvider: {} }, { loggerProvider: null }]) {
    it(`refuses ${JSON.stringify(bad)} with a TypeError`, () => {
      assert.throws(() => logger('json', { otel: bad as never }), {
        name: 'TypeError',
        message: /option otel must be true/,
      });
    });
  }

  for (const off of [false, null, undefined]) {
    it(`takes ${off} as off`, () => {
      assert.equal(typeof logger('json', { otel: off }), 'function');
    });
  }
});
