// Files written into the scratch project of legacy-tools.test.ts: Jest 27 test files and a
// TypeScript 4.1 consumer (syntax of 4.1 only: no `import { type X }`, which is 4.5's).

/** A Jest test file, run by Jest 27's own resolver and module registry. */
export const jestEntriesTest = `'use strict';
const logger = require('httpware/logger');
const parsers = require('httpware/parsers');
const root = require('httpware');

test('httpware/logger is the logger function, with its members', () => {
  expect(typeof logger).toBe('function');
  for (const name of ['token', 'format', 'compile', 'json', 'requestId']) {
    expect(typeof logger[name]).toBe('function');
  }
  expect(typeof logger('tiny', { stream: { write() {} } })).toBe('function');
});

test('httpware/parsers is the parsers object, each parser with its read', () => {
  for (const name of ['json', 'raw', 'text', 'urlencoded']) {
    expect(typeof parsers[name]).toBe('function');
    expect(typeof parsers[name].read).toBe('function');
  }
  expect(() => parsers()).toThrow(/split into individual middleware/);
});

test('the root entry shares the same logger and parsers', () => {
  expect(root.logger).toBe(logger);
  expect(root.parsers).toBe(parsers);
});
`;

/**
 * A Jest test file in Jest's jsdom environment (jsdom 16, the default environment of Jest 26
 * and the one json-server 0.17's suites use), which has no TextEncoder, TextDecoder or crypto:
 * both entries load, and a request through them is parsed and logged.
 */
export const jestJsdomTest = `/**
 * @jest-environment jsdom
 */
'use strict';
const http = require('http');

test('the environment is jsdom, without TextEncoder, TextDecoder or crypto', () => {
  expect(typeof document).toBe('object');
  const missing = [typeof TextEncoder, typeof TextDecoder, typeof crypto];
  expect(missing).toEqual(['undefined', 'undefined', 'undefined']);
});

test('httpware/logger and httpware/parsers load', () => {
  expect(typeof require('httpware/logger')).toBe('function');
  expect(typeof require('httpware/parsers').json).toBe('function');
});

test('a request is parsed and logged, with body fields and an arrival line', async () => {
  const logger = require('httpware/logger');
  const parsers = require('httpware/parsers');
  const lines = [];
  const stream = { write: (line) => { lines.push(JSON.parse(line)); } };
  const log = logger('json', { stream, start: true, body: { fields: ['name', 'pinCode'] } });
  const json = parsers.json();
  const server = http.createServer((req, res) => {
    log(req, res, () => json(req, res, () => res.end(JSON.stringify(req.body))));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const answer = await new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json' };
    const options = { port: server.address().port, host: '127.0.0.1', method: 'POST', headers, agent: false };
    const req = http.request(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end('{"name":"Zoë","pinCode":"1234"}');
  });
  await new Promise((resolve) => server.close(resolve));
  expect(answer).toBe('{"name":"Zoë","pinCode":"1234"}');
  expect(lines.length).toBe(2);
  expect(lines[0]['http.request.id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(lines[1]['http.request.body.fields']).toEqual({ name: 'Zoë', pinCode: '[REDACTED]' });
});
`;

/** CommonJS `import x = require(...)` of each entry, with a few public types. */
export const legacyCjsConsumer = `import logger = require('httpware/logger');
import parsers = require('httpware/parsers');
import httpware = require('httpware');
import http = require('node:http');

const options: logger.LoggerOptions = { immediate: true, stream: { write() {} } };
const format: logger.FormatFn = (tokens, req, res) => tokens.url(req, res);
const log: logger.LoggerMiddleware = logger(format, options);
const jsonOptions: parsers.JsonOptions = { limit: '1mb', strict: true };
const parse: parsers.ParserMiddleware = parsers.json(jsonOptions);
const kind: httpware.ErrorType = 'entity.too.large';
http.createServer((req, res) => log(req, res, () => parse(req, res, () => res.end(kind))));

export function readText(req: http.IncomingMessage): Promise<string> {
  return parsers.text.read(req, { limit: 10 });
}
export function statusOf(err: unknown): number {
  return httpware.isHttpwareError(err) ? err.status : 500;
}
// @ts-expect-error a number is not a format
logger(42);
`;

/** ES imports (default, named and type names) of each entry. */
export const legacyEsConsumer = `import logger from 'httpware/logger';
import parsers, { json, urlencoded, RequestWithBody, UrlencodedOptions } from 'httpware/parsers';
import {
  logger as rootLogger,
  parsers as rootParsers,
  requestId,
  HttpwareError,
  ErrorType,
  Logger,
} from 'httpware';

const same: Logger = rootLogger;
const ids = requestId({ header: 'x-request-id' });
const form: UrlencodedOptions = { extended: true, parameterLimit: 10 };
const name = (req: RequestWithBody<{ name: string }>): unknown => req.body?.name;
const kind: ErrorType = 'parameters.too.many';
void [logger('tiny'), same, ids, json(), urlencoded(form), parsers.raw(), rootParsers.text()];
void [name, kind];
export const isHttpware = (err: unknown): boolean => err instanceof HttpwareError;
// @ts-expect-error not a kind of error
export const wrong: ErrorType = 'entity.missing';
`;

/** A CommonJS project as TypeScript 4.1 set them up: node resolution, esModuleInterop. */
export function legacyTsconfig(files: string[]): string {
  return JSON.stringify({
    compilerOptions: {
      module: 'commonjs',
      moduleResolution: 'node',
      esModuleInterop: true,
      target: 'es2019',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    },
    files,
  });
}
