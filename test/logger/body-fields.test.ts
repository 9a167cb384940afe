// Option `body`: named fields of the parsed request body in json/ecs lines and OpenTelemetry
// records, secret-looking keys masked, nothing by default.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { logger, parsers } from '../../src/index.js';
import type { BodyFieldsOptions, LoggerOptions } from '../../src/logger/types.js';
import { frameworks, type SendOptions, send, startServer } from '../helpers/index.js';
import { firstLine } from '../helpers/logger.js';
import type { Middleware } from '../helpers/server.js';

function jsonBody(value: unknown): SendOptions {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  };
}

const order = {
  user: { name: 'ann', password: 'hunter2', email: 'a@example.com' },
  order: { items: [{ sku: 'A1', qty: 2 }], note: 'leave at door' },
};

/** The parsed line of one request through `logger(format, options)` then `after`. */
async function lineFor(
  format: 'json' | 'ecs',
  options: LoggerOptions,
  request: SendOptions,
  extra: { after?: readonly Middleware[]; framework?: (typeof frameworks)[number] } = {},
): Promise<Record<string, unknown>> {
  const line = await firstLine((stream) => logger(format, { ...options, stream }), request, {
    after: extra.after ?? [parsers.json()],
    ...(extra.framework === undefined ? {} : { framework: extra.framework }),
  });
  return JSON.parse(line);
}

const named = (fields: string[], more: Partial<BodyFieldsOptions> = {}): LoggerOptions => ({
  body: { fields, ...more },
});

for (const framework of frameworks) {
  describe(`option body in ${framework}`, () => {
    it('writes the named fields of a JSON body under http.request.body.fields', async () => {
      const line = await lineFor('json', named(['user.name', 'order.items']), jsonBody(order), {
        framework,
      });
      assert.deepEqual(line['http.request.body.fields'], {
        'user.name': 'ann',
        'order.items': [{ sku: 'A1', qty: 2 }],
      });
    });
  });
}

describe('option body: what is written', () => {
  it('writes nothing of the body by default', async () => {
    const line = await lineFor('json', {}, jsonBody(order));
    assert.equal(line['http.request.body.fields'], undefined);
    assert.doesNotMatch(JSON.stringify(line), /ann|hunter2/);
  });

  it('masks a secret-named field even when it is named', async () => {
    const line = await lineFor('json', named(['user.name', 'user.password']), jsonBody(order));
    assert.deepEqual(line['http.request.body.fields'], {
      'user.name': 'ann',
      'user.password': '[REDACTED]',
    });
  });

  it('masks secret-named keys inside a named value', async () => {
    const line = await lineFor('json', named(['user']), jsonBody(order));
    assert.deepEqual(line['http.request.body.fields'], {
      user: { name: 'ann', password: '[REDACTED]', email: 'a@example.com' },
    });
  });

  it('masks the names of the redact option lists too', async () => {
    const line = await lineFor(
      'json',
      { ...named(['user']), redact: { query: ['email'] } },
      jsonBody(order),
    );
    assert.equal(
      (line['http.request.body.fields'] as { user: { email: string } }).user.email,
      '[REDACTED]',
    );
  });

  it('leaves out a named field the body does not have', async () => {
    const line = await lineFor('json', named(['user.name', 'user.age']), jsonBody(order));
    assert.deepEqual(line['http.request.body.fields'], { 'user.name': 'ann' });
  });

  it('leaves the field out when the body has none of the named fields', async () => {
    const line = await lineFor('json', named(['missing']), jsonBody(order));
    assert.equal(Object.hasOwn(line, 'http.request.body.fields'), false);
  });

  it('writes a value past maxDepth as a marker', async () => {
    const line = await lineFor('json', named(['order'], { maxDepth: 1 }), jsonBody(order));
    assert.deepEqual(line['http.request.body.fields'], {
      order: { items: '[Array]', note: 'leave at door' },
    });
  });

  it('writes a value past maxBytes as [TRUNCATED] and stays within the cap', async () => {
    const body = { a: 'x'.repeat(200), b: 'kept' };
    const line = await lineFor('json', named(['a', 'b'], { maxBytes: 64 }), jsonBody(body));
    const fields = line['http.request.body.fields'];
    assert.deepEqual(fields, { a: '[TRUNCATED]', b: 'kept' });
    assert.ok(Buffer.byteLength(JSON.stringify(fields)) <= 64);
  });

  it('reads a urlencoded body too', async () => {
    const line = await lineFor(
      'json',
      named(['user']),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'user=ann&pin=1234',
      },
      { after: [parsers.urlencoded()] },
    );
    assert.deepEqual(line['http.request.body.fields'], { user: 'ann' });
  });

  it('never reads a text body', async () => {
    const line = await lineFor(
      'json',
      named(['user']),
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"user":"ann"}',
      },
      { after: [parsers.text()] },
    );
    assert.equal(line['http.request.body.fields'], undefined);
  });

  it('never reads a raw body', async () => {
    const line = await lineFor(
      'json',
      named(['user']),
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: '{"user":"ann"}',
      },
      { after: [parsers.raw()] },
    );
    assert.equal(line['http.request.body.fields'], undefined);
  });

  it('never reads a top-level array (only a plain object is read)', async () => {
    const line = await lineFor('json', named(['0', '0.name']), jsonBody([{ name: 'ann' }]));
    assert.equal(Object.hasOwn(line, 'http.request.body.fields'), false);
  });

  it('ecs: writes the fields as JSON text in http.request.body.content', async () => {
    const line = await lineFor('ecs', named(['user.name']), jsonBody(order));
    assert.equal(line['http.request.body.content'], '{"user.name":"ann"}');
  });

  it('gives an object-mode stream the fields as an object', async () => {
    const written: Record<string, unknown>[] = [];
    const stream = new Writable({
      objectMode: true,
      write(chunk, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    const server = await startServer({
      middleware: [logger('json', { stream, ...named(['user.name']) }), parsers.json()],
    });
    try {
      await send(server, jsonBody(order));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written[0]?.['http.request.body.fields'], { 'user.name': 'ann' });
    } finally {
      await server.close();
    }
  });

  it('adds the fields to OpenTelemetry records as JSON text', async () => {
    const exporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    await firstLine(
      (stream) => logger('tiny', { stream, otel: { loggerProvider }, ...named(['user.name']) }),
      jsonBody(order),
      { after: [parsers.json()] },
    );
    const [record] = exporter.getFinishedLogRecords();
    assert.equal(record?.attributes['http.request.body.fields'], '{"user.name":"ann"}');
  });
});

describe('option body: creation errors', () => {
  it('refuses a text format without OpenTelemetry records', () => {
    assert.throws(() => logger('combined', named(['a'])), TypeError);
  });

  it('refuses a path through __proto__', () => {
    assert.throws(() => logger('json', named(['user.__proto__.x'])), TypeError);
  });

  it('refuses an empty key in a path', () => {
    assert.throws(() => logger('json', named(['user..name'])), TypeError);
  });

  it('refuses a field it does not know (a misspelt cap would leave the default)', () => {
    const misspelt = { body: { fields: ['a'], maxByte: 64 } } as unknown as LoggerOptions;
    assert.throws(() => logger('json', misspelt), { name: 'TypeError', message: /"maxByte"/ });
  });

  it('refuses an empty list of fields', () => {
    assert.throws(() => logger('json', named([])), TypeError);
  });

  it('refuses a maxBytes out of range', () => {
    assert.throws(() => logger('json', named(['a'], { maxBytes: 10 })), TypeError);
  });

  it('refuses a maxDepth that is not an integer', () => {
    assert.throws(() => logger('json', named(['a'], { maxDepth: 1.5 })), TypeError);
  });
});
