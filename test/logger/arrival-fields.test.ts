// The arrival line of the `start` option is derived from its preset's field map
// (json/presets.ts `arrivalFieldsOf`): its fields are the completion line's, in the same order
// and under the same keys, less those only a completion knows, plus its phase marker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const cases = [
  {
    format: 'json',
    phase: 'event.phase',
    completionOnly: ['http.response.status_code', 'http.response.body.size', 'duration_ms'],
  },
  {
    format: 'ecs',
    phase: 'event.type',
    completionOnly: ['http.response.status_code', 'http.response.body.bytes', 'event.duration'],
  },
] as const;

describe('the arrival line of each JSON preset', () => {
  for (const { format, phase, completionOnly } of cases) {
    it(`${format}: has the completion line's fields less those known only at completion`, async () => {
      const server = await loggedServer((stream) => logger(format, { stream, start: true }));
      try {
        await send(server, { path: '/a?b=1', headers: { 'user-agent': 'probe' } });
        const [arrival, completion] = (await server.capture.waitFor(2)).map(
          (line) => Object.keys(JSON.parse(line)) as string[],
        );
        const fromCompletion = (completion as string[]).filter(
          (key) => !(completionOnly as readonly string[]).includes(key),
        );
        assert.deepEqual(
          (arrival as string[]).filter((key) => key !== phase),
          fromCompletion,
        );
        assert.ok(arrival?.includes(phase));
      } finally {
        await server.close();
      }
    });
  }
});
