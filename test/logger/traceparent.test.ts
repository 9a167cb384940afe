// trace_id from a W3C traceparent header: kept when valid, left out when malformed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { rawHead, send, sendRaw } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

/** The trace_id the json format logs for a request with this traceparent (or none). */
async function traceIdFor(traceparent: string | undefined): Promise<unknown> {
  const server = await loggedServer((stream) => logger('json', { stream }));
  try {
    await send(server, traceparent === undefined ? {} : { headers: { traceparent } });
    const [line] = await server.capture.waitFor(1);
    return JSON.parse(line as string).trace_id;
  } finally {
    await server.close();
  }
}

describe('trace_id', () => {
  it('is the trace id of a valid version 00 traceparent', async () => {
    assert.equal(await traceIdFor(`00-${TRACE}-${PARENT}-01`), TRACE);
  });

  it('is read from a later version with extra fields', async () => {
    assert.equal(await traceIdFor(`01-${TRACE}-${PARENT}-01-future`), TRACE);
  });

  it('is left out without a traceparent', async () => {
    assert.equal(await traceIdFor(undefined), undefined);
  });

  const malformed: Record<string, string> = {
    'upper-case hex': `00-${TRACE.toUpperCase()}-${PARENT}-01`,
    'an all-zero trace id': `00-${'0'.repeat(32)}-${PARENT}-01`,
    'an all-zero parent id': `00-${TRACE}-${'0'.repeat(16)}-01`,
    'version ff': `ff-${TRACE}-${PARENT}-01`,
    'a short trace id': `00-${TRACE.slice(1)}-${PARENT}-01`,
    'version 00 with extra fields': `00-${TRACE}-${PARENT}-01-extra`,
    'a later version glued to more text': `01-${TRACE}-${PARENT}-01x`,
    'a value with a quote': `00-${TRACE}"-${PARENT}-01`,
    garbage: 'hello',
  };
  for (const [what, value] of Object.entries(malformed)) {
    it(`is left out for ${what}`, async () => {
      assert.equal(await traceIdFor(value), undefined);
    });
  }

  it('is left out for two traceparent headers', async () => {
    const server = await loggedServer((stream) => logger('json', { stream }));
    try {
      await sendRaw(server, [
        `GET / HTTP/1.1\r\nHost: x\r\ntraceparent: 00-${TRACE}-${PARENT}-01\r\n` +
          `traceparent: 00-${TRACE}-${PARENT}-01\r\nConnection: close\r\n\r\n`,
      ]);
      const [line] = await server.capture.waitFor(1);
      assert.equal('trace_id' in JSON.parse(line as string), false);
    } finally {
      await server.close();
    }
  });

  it('is the :trace-id token in text formats, "-" when malformed', async () => {
    const server = await loggedServer((stream) => logger(':trace-id', { stream }));
    try {
      await sendRaw(server, [
        rawHead('GET', '/', { traceparent: `00-${TRACE}-${PARENT}-01`, Connection: 'close' }),
      ]);
      await sendRaw(server, [
        rawHead('GET', '/', { traceparent: '00-\t"\xe9\x85', Connection: 'close' }),
      ]);
      assert.deepEqual(await server.capture.waitFor(2), [TRACE, '-']);
    } finally {
      await server.close();
    }
  });
});
