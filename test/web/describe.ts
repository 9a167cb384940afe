// The behaviour suite of ./suite.ts under Node's test runner, against one server started once
// for the file: each check is one test, in order.
import { after, before, describe, test } from 'node:test';
import type { WebServer } from '../helpers/web-servers.js';
import { webChecks } from './suite.js';

/** How long a server may take to start: workerd's first start on a loaded machine is slow. */
const START_TIMEOUT_MS = 60_000;

export function describeWebSuite(
  title: string,
  start: () => Promise<WebServer>,
  { startTimeoutMs = START_TIMEOUT_MS } = {},
): void {
  describe(title, () => {
    let server: WebServer | undefined;
    before(
      async () => {
        server = await start();
      },
      { timeout: startTimeoutMs },
    );
    after(async () => {
      await server?.close();
    });
    for (const { name, run } of webChecks) {
      test(name, async () => {
        if (server === undefined) throw new Error(`${title}: the server did not start`);
        await run(server);
      });
    }
  });
}
