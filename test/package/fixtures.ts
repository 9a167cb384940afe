// Files written into the scratch project that installs the packed tarball: each loads the
// package the way one kind of user does, and fails loudly when a shape is wrong.

export const cjsCheck = `'use strict';
const assert = require('node:assert/strict');
const logger = require('httpware/logger');
const parsers = require('httpware/parsers');
const root = require('httpware');
assert.equal(typeof logger, 'function', 'require("httpware/logger") is the logger function');
assert.equal(typeof logger.token, 'function');
assert.equal(typeof logger.compile, 'function');
assert.equal(typeof logger.format, 'function');
assert.equal(typeof logger.json, 'function');
assert.equal(root.requestId, logger.requestId, 'requestId from the root is logger.requestId');
for (const name of ['json', 'raw', 'text', 'urlencoded']) {
  assert.equal(typeof parsers[name], 'function', 'parsers.' + name);
}
assert.equal(root.logger, logger, 'one logger across entries');
assert.equal(root.parsers, parsers, 'one parsers object across entries');
const koa = require('httpware/koa');
for (const name of ['logger', 'json', 'raw', 'text', 'urlencoded']) {
  assert.equal(typeof koa[name], 'function', 'koa.' + name);
}
assert.equal(root.koa, koa, 'one Koa object across entries');
assert.equal(require('httpware/package.json').name, 'httpware');
process.stdout.write('cjs ok\\n');
`;

export const esmCheck = `import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import logger from 'httpware/logger';
import { logger as namedLogger } from 'httpware/logger';
import parsers, { json, raw, text, urlencoded } from 'httpware/parsers';
import { logger as rootLogger, parsers as rootParsers, requestId, HttpwareError, isHttpwareError, errorKinds } from 'httpware';
import koa, { logger as koaLogger, json as koaJson } from 'httpware/koa';
const require = createRequire(import.meta.url);
assert.equal(koa, require('httpware/koa'), 'one Koa object across module systems');
assert.deepEqual([koaLogger, koaJson], [koa.logger, koa.json]);
assert.equal(typeof logger, 'function');
assert.equal(namedLogger, logger);
assert.equal(rootLogger, logger);
assert.equal(rootParsers, parsers);
assert.deepEqual([json, raw, text, urlencoded], [parsers.json, parsers.raw, parsers.text, parsers.urlencoded]);
assert.equal(typeof HttpwareError, 'function');
assert.equal(typeof isHttpwareError, 'function');
assert.equal(typeof errorKinds, 'object');
assert.equal(requestId, logger.requestId);
assert.equal(typeof logger('json', { stream: { write() {} } }), 'function');
// ESM and CommonJS share one implementation, so one token and one format registry.
assert.equal(require('httpware/logger'), logger, 'import and require give the same logger');
process.stdout.write('esm ok\\n');
`;

export const tsEsmCheck = `import http from 'node:http';
import logger from 'httpware/logger';
import { parsers, requestId, type Logger, type Parsers, type ErrorType, type JsonFields, type RequestIdOptions } from 'httpware';
import { json } from 'httpware/parsers';

const fields: JsonFields = { status: ':status', service: 'api', at: (_tokens, req) => req.url };
const idOptions: RequestIdOptions = { header: 'x-correlation-id', trust: false };
const structured = logger(logger.json({ ...logger.json.presets.json, ...fields }), { redact: { query: ['otp'] } });
const ids = requestId(idOptions);
void [structured, ids, logger('ecs', { redact: false })];

const l: Logger = logger;
const p: Parsers = parsers;
const log = l('combined', { skip: (_req, res) => res.statusCode < 400 });
const parse = json({ limit: '1mb' });
const kind: ErrorType = 'entity.too.large';
http.createServer((req, res) => {
  log(req, res, () => parse(req, res, (err?: unknown) => { res.end(String(err ?? kind)); }));
});
// @ts-expect-error a number is not a format
l(42);
void p;
`;

export const tsCjsCheck = `import logger = require('httpware/logger');
import parsers = require('httpware/parsers');
import http = require('node:http');

const log = logger('tiny');
const parse = parsers.urlencoded({ extended: true });
http.createServer((req, res) => {
  log(req, res, () => parse(req, res, () => res.end()));
});
logger.token('id', () => 'x').format('mine', ':id :method');
const withIds = logger.requestId({ trust: true });
const lines = logger('json');
http.createServer((req, res) => withIds(req, res, () => lines(req, res, () => res.end())));
`;

export const tsconfig = JSON.stringify({
  compilerOptions: {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    strict: true,
    noEmit: true,
    types: ['node'],
    skipLibCheck: false,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
  },
  files: ['esm.ts', 'cjs.cts'],
});

/** The classic CommonJS TypeScript set-up (`module: commonjs`, node10 resolution, no exports map). */
export const tsconfigNode10 = JSON.stringify({
  compilerOptions: {
    module: 'commonjs',
    moduleResolution: 'node',
    esModuleInterop: true,
    target: 'ES2020',
    strict: true,
    noEmit: true,
    types: ['node'],
  },
  files: ['classic.ts'],
});

export const tsClassicCheck = `import logger = require('httpware/logger');
import parsers = require('httpware/parsers');
import { logger as rootLogger, type ErrorType } from 'httpware';

const kind: ErrorType = 'parameters.too.many';
const same: typeof logger = rootLogger;
const log = logger('short', { immediate: true });
const form = parsers.urlencoded({ parameterLimit: 10 });
void [kind, same, log, form];
`;

/**
 * Reads `[{ mode, specifier, path }]` as JSON on stdin and prints, for each, the `typeof` of
 * what `import` (mode `import`) or `require` (any other mode) gives at that path.
 */
export const runtimeTypeofProbe = `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const wanted = JSON.parse(readFileSync(0, 'utf8'));
const seen = [];
for (const { mode, specifier, path } of wanted) {
  let value = mode === 'import' ? await import(specifier) : require(specifier);
  for (const key of path) value = value == null ? undefined : value[key];
  seen.push(typeof value);
}
process.stdout.write(JSON.stringify(seen));
`;

/** ESM through a bundler's resolution, without esModuleInterop. */
export const tsBundlerCheck = `import logger, { type FormatFn, token } from 'httpware/logger';
import * as morgan from 'httpware/logger';
import parsers, { json, type OptionsJson } from 'httpware/parsers';
import { HttpwareError } from 'httpware';

const format: FormatFn = (tokens, req, res) => tokens.url(req, res);
const options: logger.Options = { immediate: true };
const stream: morgan.StreamOptions = { write: () => {} };
const body: OptionsJson = { limit: '1mb' };
token('zone', () => 'eu');
morgan.format('zoned', ':zone :url');
export const used = [logger(format, { ...options, stream }), parsers.json(body), json(), json.read, HttpwareError];
`;

/**
 * Logs two requests with a traceparent in a project without any OpenTelemetry package, and
 * prints what the lines were, which OpenTelemetry modules anything asked Node to resolve, the
 * warnings, and what `otel: true` does there.
 */
export const withoutOpenTelemetry = `'use strict';
const Module = require('node:module');
const http = require('node:http');
const looked = [];
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (String(request).startsWith('@opentelemetry/')) looked.push(request);
  return resolve.call(this, request, ...rest);
};
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.message));
const logger = require('httpware/logger');
const lines = [];
const stream = { write: (line) => lines.push(line.trim()) };
const json = logger('json', { stream });
const text = logger(':trace-id :span-id :trace-flags', { stream });
let otel;
try {
  logger('json', { otel: true });
  otel = 'made';
} catch (err) {
  otel = err.name + ': ' + err.message;
}
const server = http.createServer((req, res) => json(req, res, () => text(req, res, () => res.end('ok'))));
server.listen(0, '127.0.0.1', async () => {
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const reply = await fetch('http://127.0.0.1:' + server.address().port + '/x', { headers: { traceparent } });
  await reply.text();
  setImmediate(() => {
    server.close();
    const [jsonLine, textLine] = lines;
    const fields = JSON.parse(jsonLine);
    console.log(JSON.stringify({ looked, warnings, otel, textLine, trace: fields.trace_id, span: fields.span_id ?? null }));
  });
});
`;
