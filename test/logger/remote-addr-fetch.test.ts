// The fetch door's `:remote-addr` is what the runtime gave the handler, never a header the
// client sent: `CF-Connecting-IP` is Cloudflare's only on workerd (its edge sets it there and
// drops the client's); anywhere else it, like `X-Forwarded-For`, is whatever the client wrote,
// and a forged address in an access log misleads whoever reads it after an incident.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogger } from '../../src/logger/index.js';
import { fetchAdapters, serveFetch } from '../helpers/fetch.js';
import { captureLines, send } from '../helpers/index.js';
import { runFixture } from '../helpers/logger.js';

const FORGED = {
  'cf-connecting-ip': '6.6.6.6',
  'x-forwarded-for': '6.6.6.6',
  'x-real-ip': '6.6.6.6',
};

describe('a forged client address on the fetch door', () => {
  for (const adapter of fetchAdapters) {
    it(`is not logged: the socket's address is (${adapter})`, async () => {
      const capture = captureLines();
      const log = fetchLogger(':remote-addr', { stream: capture.stream });
      const server = await serveFetch(
        log((_request: Request) => new Response(null)),
        adapter,
      );
      try {
        await send(server, { headers: FORGED });
        assert.deepEqual(await capture.waitFor(1), ['127.0.0.1']);
      } finally {
        await server.close();
      }
    });
  }

  it('is not logged where the runtime gives no address: "-"', () => {
    const capture = captureLines();
    const log = fetchLogger(':remote-addr', { stream: capture.stream });
    log((_request: Request) => new Response(null))(
      new Request('http://localhost/', { headers: FORGED }),
    );
    assert.deepEqual(capture.lines, ['-']);
  });

  it('is read from CF-Connecting-IP on workerd only', async () => {
    const { code, stdout, stderr } = await runFixture('workerd-address.ts');
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '203.0.113.7\n');
  });
});
