// `logger.json(fields)`: token strings keep the token's type, functions, literals and nested
// maps, custom tokens, creation errors, failing fields, named formats and extended presets.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { builtinTokens } from '../../src/logger/core/tokens.js';
import { logger } from '../../src/logger/index.js';
import type { JsonFields, TokenFn } from '../../src/logger/types.js';
import { send } from '../helpers/index.js';
import { fixTime, loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime(1.5);
});
afterEach(() => undo());
const warnings = captureWarnings();

function fieldWarnings(): Promise<Array<Error & { code?: string }>> {
  return warnings.of('HTTPWARE_LOGGER_FIELD');
}

/** The parsed line one GET of `path` gives with `logger(logger.json(fields))`. */
async function entryFor(fields: JsonFields, path = '/a?b=1'): Promise<Record<string, unknown>> {
  const server = await loggedServer((stream) => logger(logger.json(fields), { stream }));
  try {
    await send(server, { path, headers: { 'x-thing': 'thing "one"' } });
    const [line] = await server.capture.waitFor(1);
    return JSON.parse(line as string);
  } finally {
    await server.close();
  }
}

describe('logger.json fields', () => {
  it('a field of exactly one token keeps the token type: status and sizes integers, times numbers', async () => {
    const entry = await entryFor({
      status: ':status',
      size: ':res[content-length]',
      response: ':response-time',
      total: ':total-time[1]',
      pid: ':pid',
      method: ':method',
    });
    assert.deepEqual(entry, {
      status: 200,
      size: 2,
      response: 1.5,
      total: 3,
      pid: process.pid,
      method: 'GET',
    });
  });

  it('text with tokens in it is a string', async () => {
    const entry = await entryFor({ line: ':method :url -> :status' });
    assert.deepEqual(entry, { line: 'GET /a?b=1 -> 200' });
  });

  it('text with a token that has no value is left out, never "-"', async () => {
    const entry = await entryFor({ referrer: 'from :referrer', method: ':method' });
    assert.deepEqual(entry, { method: 'GET' });
  });

  it('a token with no value is left out', async () => {
    const entry = await entryFor({ referrer: ':referrer', method: ':method' });
    assert.deepEqual(entry, { method: 'GET' });
  });

  it('literals are written as they are', async () => {
    const entry = await entryFor({ service: 'api', version: 3, beta: false, owner: null });
    assert.deepEqual(entry, { service: 'api', version: 3, beta: false, owner: null });
  });

  it('a nested map is a nested object, left out when none of its fields has a value', async () => {
    const entry = await entryFor({
      http: { method: ':method', response: { status: ':status' } },
      empty: { referrer: ':referrer' },
    });
    assert.deepEqual(entry, { http: { method: 'GET', response: { status: 200 } } });
  });

  it('a function receives the raw token values, req and res, and returns any JSON value', async () => {
    const entry = await entryFor({
      thing: (tokens, req, res) => ({
        header: tokens.req(req, res, 'x-thing'),
        url: req.url,
        sent: res.headersSent,
      }),
      none: () => undefined,
      nothing: () => null,
    });
    assert.deepEqual(entry, { thing: { header: 'thing "one"', url: '/a?b=1', sent: true } });
  });

  it('a custom token keeps the type its function returns', async () => {
    logger.token('json-test-number', () => 42);
    logger.token('json-test-text', (_req, _res, arg) => `text-${arg}`);
    const entry = await entryFor({ n: ':json-test-number', t: ':json-test-text[x]' });
    assert.deepEqual(entry, { n: 42, t: 'text-x' });
  });

  it('a built-in token replaced with logger.token is used, with its own type', async () => {
    const server = await loggedServer((stream) =>
      logger(logger.json({ m: ':method' }), { stream }),
    );
    try {
      logger.token('method', () => 7);
      await send(server);
      const [line] = await server.capture.waitFor(1);
      assert.deepEqual(JSON.parse(line as string), { m: 7 });
    } finally {
      logger.token('method', builtinTokens.method as TokenFn);
      await server.close();
    }
  });

  it('a field set to undefined is not written (to remove a preset field)', async () => {
    const { time: _time, ...rest } = logger.json.presets.json;
    const entry = await entryFor({ ...rest, msg: undefined, service: 'api' });
    assert.equal('time' in entry, false);
    assert.equal('msg' in entry, false);
    assert.equal(entry.service, 'api');
    assert.equal(entry['http.response.status_code'], 200);
  });

  it('a line with no field that has a value is {}', async () => {
    const entry = await entryFor({ referrer: ':referrer' });
    assert.deepEqual(entry, {});
  });

  it('logger.format can name a JSON format', async () => {
    logger.format('json-test-named', logger.json({ s: ':status' }));
    const server = await loggedServer((stream) => logger('json-test-named', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['{"s":200}']);
    } finally {
      await server.close();
    }
  });
});

describe('logger.json creation errors', () => {
  it('an unknown token is a TypeError', () => {
    assert.throws(() => logger.json({ a: ':no-such-token' }), {
      name: 'TypeError',
      message: /"a".*:no-such-token/,
    });
  });

  it('an unknown token in a nested map names the path', () => {
    assert.throws(() => logger.json({ a: { b: 'x :no-such-token' } }), {
      name: 'TypeError',
      message: /"a\.b"/,
    });
  });

  it('fields that are not a map are a TypeError', () => {
    for (const fields of [null, 'json', [], 42]) {
      assert.throws(() => logger.json(fields as never), TypeError);
    }
  });

  it('a value of another kind (array, symbol, NaN) is a TypeError', () => {
    for (const value of [[1], Symbol('x'), Number.NaN, 10n]) {
      assert.throws(() => logger.json({ a: value as never }), TypeError);
    }
  });

  it('a cycle is a TypeError', () => {
    const fields: Record<string, unknown> = {};
    fields.self = fields;
    assert.throws(() => logger.json(fields as JsonFields), TypeError);
  });
});

describe('failing fields', () => {
  it('a throwing field function leaves that field out, keeps the line, warns once', async () => {
    const fields = {
      method: ':method',
      broken: () => {
        throw new Error('field exploded');
      },
    };
    const server = await loggedServer((stream) => logger(logger.json(fields), { stream }));
    try {
      await send(server);
      await send(server);
      assert.deepEqual(await server.capture.waitFor(2), ['{"method":"GET"}', '{"method":"GET"}']);
      const emitted = await fieldWarnings();
      assert.equal(emitted.length, 1);
      assert.match(emitted[0]?.message ?? '', /"broken".*field exploded/);
    } finally {
      await server.close();
    }
  });

  it('a throwing custom token leaves its field out and keeps the line', async () => {
    logger.token('json-test-throws', () => {
      throw new Error('token exploded');
    });
    const entry = await entryFor({ method: ':method', bad: ':json-test-throws' });
    assert.deepEqual(entry, { method: 'GET' });
    assert.equal((await fieldWarnings()).length, 1);
  });

  it('a value JSON cannot hold (a cycle) leaves the field out', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const entry = await entryFor({ method: ':method', loop: () => cyclic });
    assert.deepEqual(entry, { method: 'GET' });
  });
});
