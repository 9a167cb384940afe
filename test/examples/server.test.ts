import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';

// `npm start` runs examples/server.mjs against the built package: it must start, log with
// `dev` and parse bodies, as the README says.

const root = new URL('../../', import.meta.url).pathname;

describe('the example server', () => {
  let child: ChildProcess;
  let base = '';
  let output = '';

  before(async () => {
    child = spawn(process.execPath, ['examples/server.mjs'], {
      cwd: root,
      env: { ...process.env, PORT: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
    });
    while (!/listening on (http:\/\/\S+)/.test(output)) await once(child.stdout!, 'data');
    base = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  });

  after(() => {
    child.kill();
  });

  test('prints how to try it with curl', () => {
    assert.match(output, /curl /);
  });

  test('echoes a JSON body and logs the request in the dev format', async () => {
    const res = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":"world"}',
    });
    assert.deepEqual(await res.json(), { body: { hello: 'world' } });
    while (!/POST \/echo 200/.test(output)) await once(child.stdout!, 'data');
    assert.match(output, /POST \/echo 200 \d+\.\d{3} ms - \d+/);
  });

  test('echoes an extended form body', async () => {
    const res = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user[name]=ada&user[langs][]=js',
    });
    assert.deepEqual(await res.json(), { body: { user: { name: 'ada', langs: ['js'] } } });
  });

  test('answers malformed JSON with a typed 400', async () => {
    const res = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"bad json',
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'entity.parse.failed');
  });
});
