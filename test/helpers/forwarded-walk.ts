// Servers with `trustProxy` in a child process (test/logger/fixtures/forwarded-walk.ts), and
// the address each logs for a request with given forwarding headers. The child stands between
// the test and a walk of the header that might never end: such a walk blocks the child's event
// loop, so the request times out here, its test fails under its own name, and the child is
// started afresh for the next test.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { WalkServer } from '../logger/fixtures/forwarded-walk.js';
import { send } from './client.js';

export type { WalkDoor, WalkServer } from '../logger/fixtures/forwarded-walk.js';

const CHILD = new URL('../logger/fixtures/forwarded-walk.ts', import.meta.url).pathname;

/** How long a request may take: a walk that ends takes microseconds. */
const ANSWER_MS = 3000;

export interface WalkServers {
  /** The address server `index` logged for one GET with `headers` (arrays: repeated lines). */
  address(index: number, headers: Record<string, string | readonly string[]>): Promise<string>;
  close(): Promise<void>;
}

interface Child {
  readonly process: ChildProcessByStdio<null, Readable, Readable>;
  readonly ports: readonly number[];
  /** The address of each line, by its first two fields (`<server index> /<request number>`). */
  readonly lines: Map<string, string>;
  readonly waiting: Map<string, (address: string) => void>;
}

async function launch(servers: readonly WalkServer[]): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(servers)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit');
  while (!/^ports (.*)$/m.test(stderr)) {
    const event = await Promise.race([once(child.stderr, 'data'), exited.then(() => 'exit')]);
    if (event === 'exit') throw new Error(`the walk servers did not start: ${stderr}`);
  }
  const ports = JSON.parse(/^ports (.*)$/m.exec(stderr)?.[1] ?? '[]') as number[];
  const lines = new Map<string, string>();
  const waiting = new Map<string, (address: string) => void>();
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      const [index, url, address = ''] = pending.slice(0, newline).split(' ');
      pending = pending.slice(newline + 1);
      const key = `${index} ${url}`;
      lines.set(key, address);
      waiting.get(key)?.(address);
    }
  });
  return { process: child, ports, lines, waiting };
}

async function stop(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill('SIGKILL');
  await exited;
}

/** The line `key` of `child`, once written (rejects after ANSWER_MS). */
async function lineOf(child: Child, key: string): Promise<string> {
  const known = child.lines.get(key);
  if (known !== undefined) return known;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      child.waiting.set(key, resolve);
      timer = setTimeout(() => reject(new Error(`no line for ${key}`)), ANSWER_MS);
    });
  } finally {
    clearTimeout(timer);
    child.waiting.delete(key);
  }
}

/** Starts `servers` in one child process; `address` asks them in turn. */
export async function startWalkServers(servers: readonly WalkServer[]): Promise<WalkServers> {
  let child = await launch(servers);
  let requests = 0;
  return {
    async address(index, headers) {
      const transport = servers[index]?.door === 'node-h2c' ? 'h2c' : 'http';
      const path = `/${++requests}`;
      const origin = `http://127.0.0.1:${child.ports[index]}`;
      try {
        const reply = await send({ origin, transport }, { path, headers, timeoutMs: ANSWER_MS });
        if (reply.status !== 200) throw new Error(`status ${reply.status}`);
      } catch (err) {
        // The child hung (or worse): a fresh one for the next test.
        await stop(child);
        child = await launch(servers);
        throw err;
      }
      return lineOf(child, `${index} ${path}`);
    },
    close: () => stop(child),
  };
}
