// What the destination tests share: a child server (fixtures/server.ts) started and driven
// from outside, and a load of keep-alive requests that records which were answered.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach } from 'node:test';
import type { Destination } from '../../src/logger/destination/types.js';
import { logger } from '../../src/logger/index.js';

const SERVER = new URL('../destination/fixtures/server.ts', import.meta.url).pathname;

/** A temporary folder for the calling file, removed after its tests. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'httpware-destination-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface ServerChild {
  readonly port: number;
  readonly child: ChildProcess;
  /** How it ended: exit code or signal. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * Starts fixtures/server.ts with a target and options; its stdout is piped unless ignored.
 * `fileSizeKiB` caps the size of any file it writes (the shell's `ulimit -f`): a write that
 * passes it is cut short, then fails with EFBIG, as on a disk that fills up mid-write.
 */
export async function startServer(
  target: string,
  options: Record<string, unknown> = {},
  spawnOptions: { stdout?: 'pipe' | 'ignore'; nodeArgs?: string[]; fileSizeKiB?: number } = {},
): Promise<ServerChild> {
  const args = [
    ...(spawnOptions.nodeArgs ?? []),
    '--import',
    'tsx',
    SERVER,
    target,
    JSON.stringify(options),
  ];
  const limit = spawnOptions.fileSizeKiB;
  const stdio: ['ignore', 'pipe' | 'ignore', 'pipe'] = [
    'ignore',
    spawnOptions.stdout ?? 'ignore',
    'pipe',
  ];
  const child =
    limit === undefined
      ? spawn(process.execPath, args, { stdio })
      : spawn('bash', ['-c', `ulimit -f ${limit}; exec "$0" "$@"`, process.execPath, ...args], {
          stdio,
        });
  const ended = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /PORT (\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error(`the server ended before listening: ${stderr}`)));
  });
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { port, child, ended, stderr: () => stderr };
}

/** A GET to the child; rejects when the connection fails. */
export function get(port: number, path: string, agent?: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: agent ?? false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * Keep-alive requests from `concurrency` clients, each to `/n/<id>` (padded to `pad`
 * characters), until `stop()` or until the server stops answering. `answered` lists the ids
 * whose whole response arrived.
 */
export class Load {
  readonly answered: number[] = [];
  readonly done: Promise<void>;
  private next = 0;
  private stopped = false;
  private readonly agent: http.Agent;

  constructor(
    private readonly port: number,
    concurrency = 16,
    private readonly pad = 0,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const workers = Array.from({ length: concurrency }, () => this.worker());
    this.done = Promise.all(workers).then(() => this.agent.destroy());
  }

  /** How many requests were sent so far. */
  get sent(): number {
    return this.next;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  /** Resolves once `count` requests were answered. */
  async until(count: number): Promise<void> {
    while (this.answered.length < count && !this.stopped) await delay(5);
  }

  static path(id: number, pad: number): string {
    const path = `/n/${id}`;
    return pad > path.length ? `${path}/${'x'.repeat(pad - path.length - 1)}` : path;
  }

  private async worker(): Promise<void> {
    while (!this.stopped) {
      const id = this.next++;
      try {
        await get(this.port, Load.path(id, this.pad), this.agent);
      } catch {
        return; // the server is gone (or going): the load ends
      }
      this.answered.push(id);
    }
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The request ids in a file of `:url` lines (`/n/<id>...`), in order. */
export function idsIn(file: string): number[] {
  return idsOf(readFileSync(file, 'utf8'));
}

export function idsOf(text: string): number[] {
  const ids: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^\/n\/(\d+)/.exec(line);
    if (match) ids.push(Number(match[1]));
  }
  return ids;
}

/** The answered ids missing from the logged ones, and the ids logged more than once. */
export function compare(answered: readonly number[], logged: readonly number[]) {
  const seen = new Set<number>();
  const twice: number[] = [];
  for (const id of logged) {
    if (seen.has(id)) twice.push(id);
    seen.add(id);
  }
  return { missing: answered.filter((id) => !seen.has(id)), twice };
}

/**
 * `logger.destination` for in-process tests: each one made is ended after the test, so that
 * none is left holding the process's exit and signal listeners.
 */
export function destinations(): typeof logger.destination {
  let opened: Destination[] = [];
  afterEach(() => {
    for (const destination of opened) destination.end();
    opened = [];
  });
  return (target, options) => {
    const destination = logger.destination(target, options);
    opened.push(destination);
    return destination;
  };
}
