// The Web door's behaviour suite (test/web/suite.ts) on Bun and Deno, served by the runtime's
// own server: Bun.serve or Deno.serve with the app's fetch handler, then a Hono app on it
// (the logger as `app.use` middleware, and `app.fetch` wrapped whole).
//
//   bun test/runtimes/web.ts
//   deno run --allow-all --sloppy-imports test/runtimes/web.ts
import { createApp } from '../fixtures/web/app.js';
import { createHonoApp } from '../fixtures/web/hono.js';
import { startBunServe, startDenoServe, type WebServer } from '../helpers/web-servers.js';
import { webChecks } from '../web/suite.js';
import { type RunnerCheck, runChecks, runtimeName } from './runner.js';

type Fetch = (request: Request) => Promise<Response>;
const serve = runtimeName === 'bun' ? startBunServe : startDenoServe;
const serverName = runtimeName === 'bun' ? 'Bun.serve' : 'Deno.serve';

const hosts: ReadonlyArray<readonly [string, () => Fetch]> = [
  [serverName, () => createApp().fetch],
  [`Hono on ${serverName}, logger as app.use middleware`, () => createHonoApp('middleware').fetch],
  [`Hono on ${serverName}, app.fetch wrapped`, () => createHonoApp('fetch').fetch],
];

const checks: RunnerCheck[] = [];
for (const [host, app] of hosts) {
  let server: WebServer | undefined;
  checks.push({
    name: `${host}: starts`,
    run: async () => {
      server = await serve(app());
    },
  });
  for (const { name, run } of webChecks) {
    checks.push({
      name: `${host}: ${name}`,
      run: async () => {
        if (server === undefined) throw new Error(`${host} did not start`);
        await run(server);
      },
    });
  }
  checks.push({ name: `${host}: stops`, run: async () => server?.close() });
}

await runChecks('httpware Web suite', checks);
