// The `ecs` predefined format: Elastic Common Schema names, ecs-logging's first three fields,
// and event.duration in nanoseconds.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { requestId } from '../../src/logger/core/request-id.js';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { fixTime, loggedServer } from '../helpers/logger.js';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime(1.5);
});
afterEach(() => undo());

const expected = {
  '@timestamp': '2000-10-10T13:55:36.789Z',
  'log.level': 'info',
  message: 'GET /users/42 200 1.5 ms',
  'ecs.version': '8.11.0',
  'http.request.method': 'GET',
  'url.path': '/users/42',
  'url.query': 'sort=desc&access_token=REDACTED',
  'http.response.status_code': 200,
  'http.response.body.bytes': 2,
  'event.duration': 1_500_000,
  'client.ip': '127.0.0.1',
  'user_agent.original': 'test-agent/1.0',
  'http.version': '1.1',
  'http.request.id': 'req-7',
  'trace.id': '4bf92f3577b34da6a3ce929d0e0e4736',
};

for (const framework of frameworks) {
  describe(`the ecs format in ${framework}`, () => {
    it('writes Elastic Common Schema fields, @timestamp, log.level and message first', async () => {
      const server = await loggedServer((stream) => logger('ecs', { stream }), {
        framework,
        before: [requestId()],
      });
      try {
        await send(server, {
          path: '/users/42?sort=desc&access_token=secret',
          headers: {
            'user-agent': 'test-agent/1.0',
            'x-request-id': 'req-7',
            traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
          },
        });
        const [line] = await server.capture.waitFor(1);
        const entry = JSON.parse(line as string);
        assert.deepEqual(entry, expected);
        assert.deepEqual(Object.keys(entry), Object.keys(expected));
      } finally {
        await server.close();
      }
    });
  });
}

describe('the ecs format’s event.duration', () => {
  it('is the whole number of nanoseconds, written as JavaScript writes it, at every size', async () => {
    // One clock step per request is its duration: from a nanosecond, across each group of
    // three digits, to past a second and a day.
    const steps = [0.000001, 0.000999, 0.001, 0.123456, 1, 12.000001, 999.999999, 1000, 86_400_000];
    const server = await loggedServer((stream) => logger('ecs', { stream }));
    try {
      for (const [index, step] of steps.entries()) {
        undo();
        undo = fixTime(step);
        await send(server, { path: '/' });
        const lines = await server.capture.waitFor(index + 1);
        const text = /"event\.duration":([^,}]*)/.exec(lines[index] as string)?.[1];
        assert.equal(text, String(Math.round(step * 1e6)), `a step of ${step} ms`);
      }
    } finally {
      await server.close();
    }
  });
});
