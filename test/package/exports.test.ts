import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

// The public surface, locked: the built package, loaded by its own name (package
// self-reference), from both module systems. A change here is a change to the public API.
const require = createRequire(import.meta.url);

const rootExports = [
  'HttpwareError',
  'errorKinds',
  'fastify',
  'fetchLogger',
  'isHttpwareError',
  'koa',
  'logger',
  'parsers',
  'problemHandler',
  'recordError',
  'redactDefaults',
  'requestId',
  'toResponse',
];

test('the root entry exports exactly the public names, from ESM and CommonJS', async () => {
  const esm = await import('httpware');
  assert.deepEqual(Object.keys(esm).sort(), rootExports);
  const cjs = require('httpware') as Record<string, unknown>;
  assert.deepEqual(Object.keys(cjs).sort(), rootExports);
});

test('the logger entry is the logger function, with token, compile, format, json, requestId, recordError and destination', async () => {
  const cjs = require('httpware/logger') as Record<string, unknown>;
  assert.equal(typeof cjs, 'function');
  const esm = await import('httpware/logger');
  // compile, format and token: the named exports morgan has under Node's ESM.
  assert.deepEqual(Object.keys(esm).sort(), [
    'compile',
    'default',
    'destination',
    'fetchLogger',
    'format',
    'logger',
    'recordError',
    'redactDefaults',
    'token',
  ]);
  assert.equal(esm.default, cjs);
  assert.deepEqual(
    [esm.compile, esm.format, esm.token, esm.recordError, esm.redactDefaults, esm.fetchLogger],
    [cjs.compile, cjs.format, cjs.token, cjs.recordError, cjs.redactDefaults, cjs.fetchLogger],
  );
  assert.equal(esm.destination, cjs.destination);
  for (const member of [
    'token',
    'compile',
    'format',
    'json',
    'requestId',
    'recordError',
    'fetchLogger',
    'destination',
  ]) {
    assert.equal(typeof cjs[member], 'function');
  }
  assert.deepEqual(Object.keys((cjs.json as { presets: object }).presets).sort(), ['ecs', 'json']);
});

test('requestId is one function across the root entry and logger.requestId', async () => {
  const esm = await import('httpware');
  const cjs = require('httpware') as { requestId: unknown; logger: { requestId: unknown } };
  assert.equal(typeof esm.requestId, 'function');
  assert.equal(esm.requestId, cjs.requestId);
  assert.equal(cjs.logger.requestId, cjs.requestId);
});

test('the parsers entry is the parsers object with json, raw, text, urlencoded, toResponse and problemHandler', async () => {
  const cjs = require('httpware/parsers') as Record<string, unknown>;
  assert.deepEqual(Object.keys(cjs).sort(), [
    'json',
    'problemHandler',
    'raw',
    'text',
    'toResponse',
    'urlencoded',
  ]);
  const esm = await import('httpware/parsers');
  assert.deepEqual(Object.keys(esm).sort(), [
    'default',
    'json',
    'parsers',
    'problemHandler',
    'raw',
    'text',
    'toResponse',
    'urlencoded',
  ]);
  assert.equal(esm.default, cjs);
  const root = await import('httpware');
  assert.deepEqual([root.toResponse, root.problemHandler], [cjs.toResponse, cjs.problemHandler]);
});

test('the koa entry is the Koa middleware object: logger, json, urlencoded, text, raw and bodyParser', async () => {
  const cjs = require('httpware/koa') as Record<string, unknown>;
  const names = ['bodyParser', 'json', 'logger', 'raw', 'text', 'urlencoded'];
  assert.deepEqual(Object.keys(cjs).sort(), names);
  const esm = await import('httpware/koa');
  assert.deepEqual(Object.keys(esm).sort(), [
    'bodyParser',
    'default',
    'json',
    'koa',
    'logger',
    'raw',
    'text',
    'urlencoded',
  ]);
  assert.equal(esm.default, cjs);
  assert.deepEqual(
    [esm.logger, esm.json, esm.urlencoded, esm.text, esm.raw, esm.bodyParser],
    [cjs.logger, cjs.json, cjs.urlencoded, cjs.text, cjs.raw, cjs.bodyParser],
  );
  const root = require('httpware') as Record<string, unknown>;
  assert.equal(root.koa, cjs, 'one Koa object across entries');
});

test('the fastify entry gives httpwareLogger and httpwareParsers, one pair across ESM, CommonJS and the root', async () => {
  const cjs = require('httpware/fastify') as Record<string, unknown>;
  assert.deepEqual(Object.keys(cjs).sort(), ['httpwareLogger', 'httpwareParsers']);
  const esm = await import('httpware/fastify');
  assert.deepEqual(Object.keys(esm).sort(), ['httpwareLogger', 'httpwareParsers']);
  assert.deepEqual(
    [esm.httpwareLogger, esm.httpwareParsers],
    [cjs.httpwareLogger, cjs.httpwareParsers],
  );
  const root = require('httpware') as { fastify: unknown };
  assert.equal(root.fastify, cjs);
});
