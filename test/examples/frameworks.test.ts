import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type RunningExample, startExample } from '../helpers/examples.js';

// The examples the README points to, run as users would run them, against the built package.

describe('the Express example', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('express.mjs');
  });
  after(() => example.stop());

  test('parses JSON on its route and logs a combined line', async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'example-test' },
      body: '{"name":"lamp"}',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { created: { name: 'lamp' } });
    await example.waitFor(/"POST \/api\/items HTTP\/1\.1" 201 \d+ "-" "example-test"/);
  });

  test('answers an over-limit body with its typed error', async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(20_000) }),
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: string }).error, 'entity.too.large');
  });

  test('parses a login form', async () => {
    const res = await fetch(`${example.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=ada',
    });
    assert.equal(await res.text(), 'hello ada\n');
  });
});

describe('the Connect example', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('connect.mjs');
  });
  after(() => example.stop());

  test('reads a text body and logs it with a custom token', async () => {
    const res = await fetch(`${example.base}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: '# hello',
    });
    assert.equal(await res.text(), 'you sent 7 characters\n');
    await example.waitFor(/POST \/notes 200 7 chars/);
  });
});

describe('the webhook example', () => {
  const secret = 'test-secret';
  let example: RunningExample;
  before(async () => {
    example = await startExample('webhook.mjs', { WEBHOOK_SECRET: secret });
  });
  after(() => example.stop());

  const post = (body: string, signature: string) =>
    fetch(`${example.base}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });

  test('accepts a body signed over its exact bytes', async () => {
    // Spacing that re-serialising req.body would lose: the HMAC must be over the raw bytes.
    const body = '{ "event" :  "ping" }';
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const res = await post(body, signature);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { accepted: 'ping' });
  });

  test('refuses a body whose signature does not match', async () => {
    const res = await post('{"event":"ping"}', `sha256=${'0'.repeat(64)}`);
    assert.equal(res.status, 401);
  });

  test('refuses a signature header that is not sha256= and 64 hex digits, and one for other bytes', async () => {
    const body = '{"event":"ping"}';
    const hmac = createHmac('sha256', secret).update(body).digest('hex');
    for (const signature of ['', hmac, `sha256=${hmac.slice(2)}`, `sha256=${'zz'.repeat(32)}`]) {
      assert.equal((await post(body, signature)).status, 401, signature);
    }
    assert.equal((await post('{"event":"pong"}', `sha256=${hmac}`)).status, 401);
    // Upper-case hex digits are the same signature.
    assert.equal((await post(body, `sha256=${hmac.toUpperCase()}`)).status, 200);
  });

  test('checks the signature before parsing: a forged malformed body is a 401, not a 400', async () => {
    const forged = await post('{"event":', `sha256=${'0'.repeat(64)}`);
    assert.equal(forged.status, 401);
    const body = '{"event":';
    const signed = await post(
      body,
      `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    );
    assert.equal(signed.status, 400);
  });

  test('refuses a body that is not JSON, which no signature was checked over', async () => {
    const res = await fetch(`${example.base}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"event":"ping"}',
    });
    assert.equal(res.status, 415);
  });

  test('refuses to start without a secret', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const { WEBHOOK_SECRET: _unset, ...inherited } = process.env;
    const env = { ...inherited, PORT: '0' };
    const run = spawnSync(process.execPath, ['examples/webhook.mjs'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /set WEBHOOK_SECRET/);
  });
});

describe('the Fastify example', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('fastify.mjs');
  });
  after(() => example.stop());

  test('parses JSON on its route and logs one combined line', async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'example-test' },
      body: '{"name":"lamp"}',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { created: { name: 'lamp' } });
    await example.waitFor(/"POST \/api\/items HTTP\/1\.1" 201 \d+ "-" "example-test"/);
  });

  test("answers an over-limit body by Fastify's error handler, with Fastify's code", async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(20_000) }),
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { code: string }).code, 'FST_ERR_CTP_BODY_TOO_LARGE');
  });

  test('parses a login form', async () => {
    const res = await fetch(`${example.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=ada',
    });
    assert.equal(await res.text(), 'hello ada\n');
  });
});

describe('the Koa example', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('koa.mjs');
  });
  after(() => example.stop());

  test('parses JSON on its route and logs a combined line', async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'koa-example-test' },
      body: '{"name":"lamp"}',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { created: { name: 'lamp' } });
    await example.waitFor(/"POST \/api\/items HTTP\/1\.1" 201 \d+ "-" "koa-example-test"/);
  });

  test("answers an over-limit body through Koa's error response, and logs its 413", async () => {
    const res = await fetch(`${example.base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'koa-example-limit' },
      body: JSON.stringify({ blob: 'x'.repeat(20_000) }),
    });
    assert.deepEqual([res.status, await res.text()], [413, 'request entity too large']);
    await example.waitFor(/"POST \/api\/items HTTP\/1\.1" 413 24 "-" "koa-example-limit"/);
  });

  test('logs the status of an error a route throws', async () => {
    const res = await fetch(`${example.base}/private`, {
      headers: { 'user-agent': 'koa-example-private' },
    });
    assert.deepEqual([res.status, await res.text()], [403, 'members only']);
    await example.waitFor(/"GET \/private HTTP\/1\.1" 403 12 "-" "koa-example-private"/);
  });

  test('parses a login form', async () => {
    const res = await fetch(`${example.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=ada',
    });
    assert.equal(await res.text(), 'hello ada\n');
  });
});

describe('the metrics example', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('metrics.mjs');
  });
  after(() => example.stop());

  /** The Prometheus text the example serves now. */
  async function scrape(): Promise<string> {
    const res = await fetch(`${example.base}/metrics`);
    assert.equal(res.status, 200);
    return res.text();
  }

  /** The value of the sample `name{...}` whose labels include every one of `labels`. */
  function sample(text: string, name: string, labels: readonly string[]): number | undefined {
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  test('serves the request counts by route, status and error in Prometheus text', async () => {
    for (const id of ['1', '2', '3']) await (await fetch(`${example.base}/users/${id}`)).text();
    await (await fetch(`${example.base}/METRICS`)).text();
    await (await fetch(`${example.base}/fail`)).text();
    await example.waitFor(/"GET \/fail HTTP\/1\.1" 500/);
    const text = await scrape();
    const route = 'http_route="/users/:id"';
    assert.equal(sample(text, 'http_server_request_duration_count', [route]), 3);
    assert.equal(sample(text, 'http_server_request_duration_bucket', [route, 'le="+Inf"']), 3);
    assert.equal(
      sample(text, 'http_server_request_duration_count', [
        'http_route="/fail"',
        'error_type="500"',
      ]),
      1,
    );
    assert.equal(sample(text, 'http_server_active_requests', ['http_request_method="GET"']), 0);
    // The ids are in no label: one series per route; the scrapes, however spelled, are not
    // measured.
    assert.doesNotMatch(text, /users\/[0-9]|\/metrics/i);
  });
});
