// `destination` as the `stream` of `fetchLogger` on Bun and Deno (issue 42): lines reach the
// file, and what is held is written however the process ends. Each check runs a fresh process
// of this runtime serving on its own server (Bun.serve, Deno.serve) with a batch delay of a
// minute, so every line is still held when the process ends and only the exit hooks can write
// it; the process ends as it would without httpware (status, signal).
//
//   bun test/runtimes/destination.ts
//   deno run --allow-all --sloppy-imports test/runtimes/destination.ts
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunnerCheck, runChecks, runtimeName } from './runner.js';

const REQUESTS = 20;
const onNode = runtimeName !== 'bun' && runtimeName !== 'deno';

/** How the child ends once it has answered every request. */
const ENDINGS = {
  'the event loop empties': '',
  'process.exit(3)': 'process.exit(3);',
  'an unhandled SIGTERM': "process.kill(process.pid, 'SIGTERM');",
  'an unhandled SIGINT': "process.kill(process.pid, 'SIGINT');",
  'an uncaught exception': "setTimeout(() => { throw new Error('boom'); }, 0);",
} as const;

interface Outcome {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
}

/** A server on this runtime, logging to `file`; `REQUESTS` answered, then `ending`. */
function serveAndEnd(file: string, ending: string): Promise<Outcome> {
  const logger = new URL('../../entries/logger.mjs', import.meta.url).href;
  const script = `
    import process from 'node:process';
    import { destination, fetchLogger } from '${logger}';
    const log = fetchLogger('combined', { stream: destination(${JSON.stringify(file)}, { batchMs: 60000 }) });
    const handler = log(() => new Response('ok'));
    const server = globalThis.Bun
      ? Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler })
      : Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, handler);
    const port = globalThis.Bun ? server.port : server.addr.port;
    for (let i = 0; i < ${REQUESTS}; i++) await (await fetch('http://127.0.0.1:' + port + '/r' + i)).text();
    await (globalThis.Bun ? server.stop(true) : server.shutdown());
    ${ending}`;
  return runScript(script);
}

/** How a script run by this runtime ends. */
function runScript(script: string): Promise<Outcome> {
  const args = runtimeName === 'deno' ? ['eval', '--quiet', script] : ['-e', script];
  return new Promise((resolve) => {
    execFile(process.execPath, args, (err, _stdout, stderr) => {
      const failure = err as (Error & { code?: unknown; signal?: unknown }) | null;
      resolve({
        code: failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null,
        signal: typeof failure?.signal === 'string' ? failure.signal : null,
        stderr,
      });
    });
  });
}

const checks: RunnerCheck[] = Object.entries(ENDINGS).map(([name, ending]) => ({
  name: `${runtimeName}: fetchLogger to a destination, ended by ${name}: every line in the file, the same ending`,
  skip: onNode ? 'Bun and Deno only (Node: test/destination)' : undefined,
  run: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'httpware-runtime-destination-'));
    try {
      const file = join(dir, 'access.log');
      const [outcome, expected] = await Promise.all([
        serveAndEnd(file, ending),
        runScript(ending || ';'), // how the process ends without httpware
      ]);
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // no file: no line was written
      }
      const lines = text.split('\n').filter((line) => line !== '');
      const logged = lines.filter((line, i) => line.includes(`"GET /r${i} HTTP/1.1" 200 `));
      if (logged.length !== REQUESTS) {
        throw new Error(
          `${lines.length} lines, ${logged.length} of the ${REQUESTS} requests in order (${lines[0]}); stderr: ${outcome.stderr}`,
        );
      }
      // Deno delivers a signal to its listeners asynchronously: sent again once ours is
      // removed, it may still find Deno's own handler in place and end the process with
      // status 0 (as it can without httpware, with any listener; docs/logger.md says so).
      const denoSignal = runtimeName === 'deno' && expected.signal !== null && outcome.code === 0;
      if (!denoSignal && (outcome.code !== expected.code || outcome.signal !== expected.signal)) {
        throw new Error(
          `ended with ${outcome.code}/${outcome.signal}, without httpware ${expected.code}/${expected.signal}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
}));

await runChecks('httpware destination', checks);
