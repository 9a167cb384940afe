import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningExample, startExample } from '../helpers/examples.js';

// `npm start` runs examples/server.mjs against the built package: it must start, log with
// `dev` and parse bodies, as the README says.
describe('the example server (npm start)', () => {
  let example: RunningExample;
  before(async () => {
    example = await startExample('server.mjs');
  });
  after(() => example.stop());

  test('prints how to try it with curl', () => {
    assert.match(example.output(), /curl /);
  });

  test('echoes a JSON body and logs the request in the dev format', async () => {
    const res = await fetch(`${example.base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":"world"}',
    });
    assert.deepEqual(await res.json(), { body: { hello: 'world' } });
    await example.waitFor(/POST \/echo 200 \d+\.\d{3} ms - \d+/);
  });

  test('echoes an extended form body', async () => {
    const res = await fetch(`${example.base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user[name]=ada&user[langs][]=js',
    });
    assert.deepEqual(await res.json(), { body: { user: { name: 'ada', langs: ['js'] } } });
  });

  test('answers malformed JSON with a typed 400', async () => {
    const res = await fetch(`${example.base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"bad json',
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'entity.parse.failed');
  });
});
