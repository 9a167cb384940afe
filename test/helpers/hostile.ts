// Helpers for the hostile-input, fault and load tests, which live in the folder of their
// subject (test/logger/attacks.test.ts, test/parsers/memory.test.ts, ...: docs/security.md's
// "How this is tested" lists them). Shared servers and clients live in ./index.ts; this file
// adds what only those tests need: swapping the implementation under test for a deliberately
// vulnerable one, watching for uncaught exceptions, counting what outlives a request, running
// a child process, and checking log lines for forgery.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type http from 'node:http';
import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Middleware } from './server.js';

/** The public API the hostile-input tests attack. */
export type Subject = typeof import('../../src/index.js');

/**
 * The implementation under test: httpware's own source, or, when `HOSTILE_IMPL` names a
 * module, that module instead. The second form exists to show that a test fails on a
 * vulnerable implementation (body-parser and morgan with a defence removed, see
 * the README's "Security" section) without touching src/.
 */
export async function loadSubject(): Promise<Subject> {
  const alternative = process.env.HOSTILE_IMPL;
  if (alternative) return (await import(pathToFileURL(alternative).href)) as Subject;
  return import('../../src/index.js');
}

/**
 * The error types body-parser 2.4.0 gives its users to match on (`err.type`), which an
 * implementation under test must keep, whatever its own registry adds.
 */
const knownTypes = [
  'encoding.unsupported',
  'entity.parse.failed',
  'entity.verify.failed',
  'request.aborted',
  'entity.too.large',
  'request.size.invalid',
  'stream.encoding.set',
  'stream.not.readable',
  'parameters.too.many',
  'charset.unsupported',
  'querystring.parse.rangeError',
];

/**
 * Every documented error `type`: the spec's list plus whatever the implementation's
 * `errorKinds` registry declares (its shape is read loosely: an object or array of kinds,
 * each a `type` string or an object carrying one).
 */
export function documentedTypes(subject: Subject): ReadonlySet<string> {
  const types = new Set(knownTypes);
  const registry = (subject as { errorKinds?: unknown }).errorKinds;
  const visit = (value: unknown, key?: string) => {
    if (typeof value === 'string' && /^[a-z]+(\.[a-zA-Z]+)+$/.test(value)) types.add(value);
    else if (value && typeof value === 'object') {
      const type = (value as { type?: unknown }).type;
      if (typeof type === 'string') types.add(type);
      else if (key && /^[a-z]+(\.[a-zA-Z]+)+$/.test(key)) types.add(key);
    }
  };
  if (registry instanceof Map) for (const [k, v] of registry) visit(v, String(k));
  else if (Array.isArray(registry)) for (const v of registry) visit(v);
  else if (registry && typeof registry === 'object')
    for (const [k, v] of Object.entries(registry)) visit(v, k);
  return types;
}

export interface HttpErrorShape {
  status: number;
  statusCode: number;
  expose: boolean;
  type: string;
  message: string;
}

/** Asserts the error is an HTTP error a framework understands, with a documented type. */
export function assertHttpError(
  err: unknown,
  documented: ReadonlySet<string>,
  expected: { status?: number; type?: string | readonly string[] } = {},
): HttpErrorShape {
  assert.ok(err instanceof Error, `expected an Error, got ${String(err)}`);
  const e = err as unknown as HttpErrorShape;
  assert.equal(typeof e.status, 'number', `status of ${e.message}`);
  assert.ok(e.status >= 400 && e.status <= 599, `status ${e.status} (${e.message})`);
  assert.equal(e.statusCode, e.status, 'statusCode equals status');
  assert.equal(typeof e.expose, 'boolean', 'expose is a boolean');
  assert.ok(documented.has(e.type), `type ${String(e.type)} is documented (${e.message})`);
  if (expected.status !== undefined)
    assert.equal(e.status, expected.status, `status (${e.type}: ${e.message})`);
  if (expected.type !== undefined) {
    const allowed = typeof expected.type === 'string' ? [expected.type] : expected.type;
    assert.ok(allowed.includes(e.type), `type ${e.type} in ${allowed.join(', ')} (${e.message})`);
  }
  return e;
}

/**
 * Collects uncaught exceptions and unhandled rejections for the life of a test file, so a
 * test can assert that an attack crashed nothing (an 'error' on a stream nobody listens to
 * surfaces here). Call `stop()` in `after`.
 */
export function watchUncaught(): { readonly errors: unknown[]; take(): unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (err: unknown) => {
    errors.push(err);
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return {
    errors,
    take: () => errors.splice(0, errors.length),
    stop() {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    },
  };
}

/** What every hostile-input test file needs: set up by `hostileSetup`. */
export interface HostileSetup {
  /** The implementation under test (readable in tests and hooks, once loaded). */
  readonly subject: Subject;
  /** Its documented error types. */
  readonly documented: ReadonlySet<string>;
  /** Uncaught exceptions and unhandled rejections seen while the file runs. */
  readonly uncaught: ReturnType<typeof watchUncaught>;
  /**
   * Settles once the subject is loaded. Tests may read it without waiting; a file's own
   * top-level `before` hook must await this first (Node 20 does not wait for one top-level
   * hook before it starts the next).
   */
  readonly ready: Promise<void>;
}

/**
 * The set-up every hostile-input test file shares, called once at its top: the subject and its
 * documented error types are loaded before the file's tests, and uncaught exceptions are
 * watched until it ends.
 */
export function hostileSetup(): HostileSetup {
  const uncaught = watchUncaught();
  let loaded: { subject: Subject; documented: ReadonlySet<string> } | undefined;
  const ready = loadSubject().then((subject) => {
    loaded = { subject, documented: documentedTypes(subject) };
  });
  before(() => ready);
  after(() => uncaught.stop());
  const get = () => {
    if (loaded === undefined) throw new Error('hostileSetup: the subject is read before it loaded');
    return loaded;
  };
  return {
    get subject() {
      return get().subject;
    },
    get documented() {
      return get().documented;
    },
    uncaught,
    ready,
  };
}

/** Counts of active libuv resources and timers by kind (`TCPSocketWrap`, `Timeout`, ...). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/**
 * Waits (up to `timeoutMs`) for the active resources to come back to `baseline`, then
 * asserts they did: no socket, timer or file handle outlives the requests of a test.
 */
export async function assertResourcesSettle(
  baseline: Record<string, number>,
  timeoutMs = 2000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const excess = () => {
    const now = activeResources();
    const extra: Record<string, number> = {};
    for (const [kind, count] of Object.entries(now)) {
      const diff = count - (baseline[kind] ?? 0);
      if (diff > 0) extra[kind] = diff;
    }
    return extra;
  };
  while (Object.keys(excess()).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(excess(), {}, 'resources outliving the requests');
}

// 'end' is left out: Node's server adds its own 'end' listener to a request whose body was not
// read when the response finished (it dumps the rest), which is not the middleware's doing.
const reqEvents = ['data', 'error', 'close', 'aborted', 'readable'] as const;
const socketEvents = ['data', 'end', 'error', 'close', 'timeout', 'drain'] as const;

/**
 * The listener counts that matter for leaks. A request that has ended can no longer emit
 * `data`, so its `data` listeners are not counted then (a parser leaves its own on a body it
 * read whole, see read-body.ts's cleanup).
 */
function listenerCounts(req: http.IncomingMessage): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of reqEvents) counts[`req.${event}`] = req.listenerCount(event);
  if (req.readableEnded) counts['req.data'] = 0;
  for (const event of socketEvents)
    counts[`socket.${event}`] = req.socket ? req.socket.listenerCount(event) : 0;
  return counts;
}

export interface ListenerProbe {
  /** Put this middleware right before the one under test. */
  readonly before: Middleware;
  /** Listener counts that grew between entering the middleware and the response finishing. */
  readonly leaks: Array<Record<string, number>>;
  /** Requests that finished (the probe saw their response end). */
  finished: number;
}

/**
 * Records the req and socket listener counts when a request reaches the middleware under
 * test and again once its response has finished: a parser must not leave a listener behind.
 * A connection's counts are compared with those its first request saw, plus the one `close`
 * listener a parser keeps for a connection's whole life (read-body.ts's Connection): what
 * grows with each request on a kept-alive connection is a leak, that one listener is not.
 */
export function listenerProbe(): ListenerProbe {
  const firstSeen = new WeakMap<object, Record<string, number>>();
  const probe: ListenerProbe = {
    leaks: [],
    finished: 0,
    before: (req, res, next) => {
      const start = listenerCounts(req);
      const socket = req.socket as object | null;
      if (socket !== null) {
        const first = firstSeen.get(socket) ?? {
          ...start,
          'socket.close': (start['socket.close'] ?? 0) + 1,
        };
        firstSeen.set(socket, first);
        for (const event of socketEvents) start[`socket.${event}`] = first[`socket.${event}`] ?? 0;
      }
      res.once('finish', () => {
        setImmediate(() => {
          const end = listenerCounts(req);
          const grown: Record<string, number> = {};
          for (const [name, count] of Object.entries(end)) {
            if (count > (start[name] ?? 0)) grown[name] = count - (start[name] ?? 0);
          }
          if (Object.keys(grown).length > 0) probe.leaks.push(grown);
          probe.finished += 1;
        });
      });
      next();
    },
  };
  return probe;
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript or JavaScript file in a fresh Node process (through tsx), with extra
 * Node flags such as `--expose-gc`. Rejects if it runs longer than `timeoutMs`.
 */
export function runChild(
  file: string | URL,
  options: {
    nodeArgs?: readonly string[];
    args?: readonly string[];
    env?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<ChildResult> {
  const path = typeof file === 'string' ? file : file.pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), '--import', 'tsx', path, ...(options.args ?? [])],
      { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${path} timed out; stderr: ${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The last line of a child's stdout parsed as JSON: how children report measurements. */
export function lastJson<T>(result: ChildResult): T {
  const lines = result.stdout.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(
      `child gave no JSON report (code ${result.code}): ${result.stdout.slice(-1000)}\n${result.stderr.slice(-3000)}`,
    );
  }
}

/**
 * Asserts that an attack took at most `factor` times its baseline: the same work done with
 * benign input of the same size, measured in the same test, so on this machine under its
 * load at this moment (a short baseline counts as 25 ms: below that, one garbage collection or
 * a neighbour's burst on a shared 2-core machine is more than the work itself). A defence
 * that gave way (quadratic or exponential work, waiting for a client) costs seconds, hundreds
 * of times its baseline; a loaded machine slows attack and baseline alike.
 */
export function assertWithinBaseline(ms: number, baselineMs: number, label: string, factor = 20) {
  const bound = factor * Math.max(baselineMs, 25);
  assert.ok(
    ms <= bound,
    `${label}: ${ms.toFixed(0)} ms, over ${factor} x the ${baselineMs.toFixed(0)} ms baseline`,
  );
}

/** Milliseconds an async function took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/**
 * Raw control characters a log line must never carry: C0 (a line is written without its
 * trailing newline here), DEL, C1, and the Unicode line and paragraph separators.
 */
export const rawControl = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A double-quoted field in which every `"` and `\` is escaped. */
const quotedField = '"((?:[^"\\\\]|\\\\.)*)"';

/**
 * Splits a line made only of quoted fields separated by single spaces (the shape of the
 * formats the forgery tests use) and returns the fields unescaped. Fails when a field holds
 * an unescaped `"` (the count of fields changes or the line does not match) or a raw control.
 */
export function quotedFields(line: string, count: number): string[] {
  assert.doesNotMatch(line, rawControl, `raw control character in ${JSON.stringify(line)}`);
  const whole = new RegExp(`^${Array(count).fill(quotedField).join(' ')}$`, 'u');
  const match = whole.exec(line);
  assert.ok(match, `line is not ${count} intact quoted fields: ${JSON.stringify(line)}`);
  // The logger's escapes (\\ \" \b \f \n \r \t \uXXXX) are a subset of JSON's.
  return match.slice(1).map((field) => JSON.parse(`"${field}"`) as string);
}

/**
 * A value as httpware is expected to render it in a log line: morgan 1.12.1's escaping.
 * Used to compare a line with the input that produced it.
 */
export function escapeLikeMorgan(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g, (ch) => {
    switch (ch) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
}

/**
 * A copy of a parsed body with every object given the plain prototype, so bodies from two
 * parsers compare by content even if one builds null-prototype objects.
 */
export function plain(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(out, key, {
        value: plain((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** True when Object.prototype has gained or changed nothing (no pollution happened). */
export function prototypeSnapshot(): () => void {
  const names = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  const arrays = Object.getOwnPropertyNames(Array.prototype).sort().join(',');
  return () => {
    assert.equal(Object.getOwnPropertyNames(Object.prototype).sort().join(','), names);
    assert.equal(Object.getOwnPropertyNames(Array.prototype).sort().join(','), arrays);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype polluted');
  };
}
