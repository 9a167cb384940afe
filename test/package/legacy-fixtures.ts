// Files written into the scratch project of legacy-tools.test.ts: a Jest 27 test file and a
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
