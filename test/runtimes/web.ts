// The Web door's behaviour suite (test/web/suite.ts) on Bun and Deno, served by the runtime's
// own server: Bun.serve or Deno.serve with the app's fetch handler, then a Hono app on it
// (the logger as `app.use` middleware, and `app.fetch` wrapped whole); then a body read a byte
// at a time (./tiny-chunks.ts).
//
//   bun test/runtimes/web.ts
//   deno run --allow-all --sloppy-imports test/runtimes/web.ts
import { createApp } from '../fixtures/web/app.js';
import { createHonoApp } from '../fixtures/web/hono.js';
import { startBunServe, startDenoServe, type WebServer } from '../helpers/web-servers.js';
import { webChecks } from '../web/suite.js';
import { type RunnerCheck, runChecks, runtimeName } from './runner.js';
import { tinyChunkChecks } from './tiny-chunks.js';

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

// On Deno, reading `request.signal` of a Deno.serve request prints a warning about Deno 2's
// legacy abort (once per process): httpware must not make an application print it. A fresh
// process, as the warning is printed only once.
checks.push({
  name: 'Deno.serve: reading and logging a body prints nothing to stderr',
  skip: runtimeName === 'deno' ? undefined : 'Deno only',
  run: async () => {
    const entries = new URL('../../entries/', import.meta.url).href;
    const script = `
      import parsers from '${entries}parsers.mjs';
      import { fetchLogger } from '${entries}logger.mjs';
      const log = fetchLogger('json', { stream: { write() {} } });
      const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} },
        log(async (request) => Response.json(await parsers.json.read(request))));
      const reply = await fetch('http://127.0.0.1:' + server.addr.port + '/', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      console.log(await reply.text());
      await server.shutdown();`;
    const deno = (globalThis as unknown as { Deno: DenoForChild }).Deno;
    const output = await new deno.Command(deno.execPath(), {
      args: ['eval', '--quiet', script],
      stdout: 'piped',
      stderr: 'piped',
    }).output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    if (text(output.stdout).trim() !== '{"a":1}' || text(output.stderr) !== '') {
      throw new Error(`stdout ${text(output.stdout)}; stderr ${text(output.stderr)}`);
    }
  },
});

checks.push(...tinyChunkChecks);

await runChecks('httpware Web suite', checks);

interface DenoForChild {
  execPath(): string;
  Command: new (
    command: string,
    options: { args: string[]; stdout: 'piped'; stderr: 'piped' },
  ) => { output(): Promise<{ stdout: Uint8Array; stderr: Uint8Array }> };
}
