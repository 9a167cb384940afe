import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastJson, runChild } from '../helpers/hostile.js';

// A fetch handler served on Node through the adapters that turn node:http's request into a Web
// Request with `Readable.toWeb` (srvx, @hono/node-server), each in a fresh process
// (fixtures/node-adapters.ts): a body the parser stops reading must neither take the process
// down (Node 20's ERR_INVALID_STATE, see src/parsers/web-body.ts) nor cost more memory than
// the limit, and the server answers the next request.

const child = new URL('./fixtures/node-adapters.ts', import.meta.url);
const MB = 1024 * 1024;

interface Report {
  /** The status the client read (0: none). */
  status: number;
  /** The client's connection was reset while it was still sending (see the child's send). */
  reset: boolean;
  /** The first response's status as node:http handed it to the OS in full (0: never). */
  answered: number;
  next: number;
  rssGrowth: number;
  peakGrowth: number;
  heapGrowth: number;
}

async function run(adapter: string, scenario: string): Promise<Report> {
  const result = await runChild(child, {
    nodeArgs: ['--expose-gc'],
    args: [adapter, scenario],
    timeoutMs: 90_000,
  });
  assert.equal(result.code, 0, `the server process died: ${result.stderr.slice(-3000)}`);
  return lastJson<Report>(result);
}

for (const adapter of ['srvx', 'hono']) {
  describe(`json.read(request) behind ${adapter} on Node`, () => {
    test('a body announced far over the limit, whose stream was already asking for more, is refused (413) and the process lives on', async () => {
      const report = await run(adapter, 'announced');
      assert.equal(report.status, 413);
      assert.equal(report.next, 200);
    });

    test('a chunked body past the limit is stopped (413), and what it sent after is not kept', async () => {
      const report = await run(adapter, 'chunked');
      // The 413 is written in full before the connection goes. A client still sending when
      // node:http closes may meet a reset and lose it in its own kernel (TCP, not the parser):
      // only then may it have read nothing.
      assert.equal(report.answered, 413);
      if (!report.reset) assert.equal(report.status, 413);
      assert.equal(report.next, 200);
      assert.ok(report.heapGrowth < 16 * MB, `heap and external grew by ${report.heapGrowth}`);
    });

    test('a 130 KB gzip body inflating to 128 MB under a 1 MB limit grows the process by a few MB', async () => {
      const report = await run(adapter, 'bomb');
      assert.equal(report.status, 413);
      assert.equal(report.next, 200);
      assert.ok(report.peakGrowth < 32 * MB, `peak RSS grew by ${report.peakGrowth}`);
      assert.ok(report.heapGrowth < 16 * MB, `heap and external grew by ${report.heapGrowth}`);
    });
  });
}
