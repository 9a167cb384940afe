// The packed package under Jest's default environment of Jest 26, jsdom, as projects that test
// their servers with it (json-server 0.17's suites) load morgan and body-parser there: the
// entries load with only that environment's globals (no TextEncoder, no crypto, no
// structuredClone...), read none of them when they load, and serve a request there.
// test/helpers/jsdom-context.ts loads the modules as Jest 26's runtime does.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { logger as Logger, parsers as Parsers } from '../../src/index.js';
import { captureLines, send, startServer } from '../helpers/index.js';
import { jsdomLikeContext } from '../helpers/jsdom-context.js';
import { npmInstall, pack } from '../helpers/packed.js';

describe("the packed package in the globals of Jest 26's jsdom environment", () => {
  let scratch = '';

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'httpware-jsdom-'));
    const { tarball } = pack(scratch);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true }),
    );
    npmInstall(scratch, [tarball]);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Both entries, loaded in a fresh context. */
  function entries() {
    const context = jsdomLikeContext();
    return {
      logger: context.require('httpware/logger', scratch) as typeof Logger,
      parsers: context.require('httpware/parsers', scratch) as typeof Parsers,
    };
  }

  test('the context lacks what that environment lacks', () => {
    const context = jsdomLikeContext();
    const missing = ['TextEncoder', 'TextDecoder', 'structuredClone', 'crypto', 'global'];
    for (const name of missing) assert.equal(context.evaluate(`typeof ${name}`), 'undefined');
  });

  test("require('httpware/logger') loads, reading no global", () => {
    const context = jsdomLikeContext();
    const logger = context.require('httpware/logger', scratch);
    assert.equal(typeof logger, 'function');
    assert.deepEqual(context.touched, []);
  });

  test("require('httpware/parsers') loads, reading no global", () => {
    const context = jsdomLikeContext();
    const parsers = context.require('httpware/parsers', scratch) as typeof Parsers;
    assert.equal(typeof parsers.json, 'function');
    assert.deepEqual(context.touched, []);
  });

  test('a request is parsed and logged there, with body fields and an arrival line', async () => {
    const { logger, parsers } = entries();
    const capture = captureLines();
    const log = logger('json', { stream: capture.stream, start: true, body: { fields: ['name'] } });
    const server = await startServer({ middleware: [log, parsers.json()] });
    try {
      const reply = await send(server, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Zoë"}',
      });
      assert.equal(reply.text, '{"name":"Zoë"}');
      const [arrival, done] = (await capture.waitFor(2)).map((line) => JSON.parse(line));
      assert.match(arrival['http.request.id'], /^[0-9a-f-]{36}$/);
      assert.equal(done['http.request.id'], arrival['http.request.id']);
      assert.deepEqual(done['http.request.body.fields'], { name: 'Zoë' });
    } finally {
      await server.close();
    }
  });

  test('a form is parsed there, and logged in a text format', async () => {
    const { logger, parsers } = entries();
    const capture = captureLines();
    const log = logger('combined', { stream: capture.stream });
    const server = await startServer({ middleware: [log, parsers.urlencoded()] });
    try {
      const reply = await send(server, {
        method: 'POST',
        path: '/login?token=S3CR3T',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=Zo%C3%AB&city=M%C3%BCnchen',
      });
      assert.equal(reply.text, '{"name":"Zoë","city":"München"}');
      const [line] = await capture.waitFor(1);
      assert.match(line ?? '', /"POST \/login\?token=REDACTED HTTP\/1\.1" 200 /);
    } finally {
      await server.close();
    }
  });
});
