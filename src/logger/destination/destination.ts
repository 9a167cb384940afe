// `destination(target, options)`: where a logger's lines go when every line must arrive.
//
// Lines are joined into batches written by `fs.writeSync` on the main thread: after
// `batchMs`, or at once when `batchBytes` are waiting (`sync`: at once, always). Synchronous
// writes that never block on a reader: a regular file has no reader (a write lands in the
// page cache), and a pipe or socket is written in non-blocking mode, where a full one answers
// EAGAIN at once and the batch waits for the next try. So no write is ever in flight when
// the process ends: the exit handlers (exit.ts) write what is held, and nothing is written
// twice or lost to a write the thread pool had not finished (sonic-boom #101). Nothing runs
// on a worker thread and nothing is loaded from a file at run time, so a bundler can put it
// in one file (pino's transports cannot: pino #1738).
//
// What is held is bounded (`maxBytes`): past it, lines are dropped and counted, and the first
// line accepted after them is preceded, in the log, by a notice saying how many were dropped
// between which times (notice.ts). A failed write (ENOSPC, EPIPE, EBADF) or open drops its
// batch the same way; the next batch is tried again, so writing resumes when the target works.

import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { warn } from '../core/warnings.js';
import { enter, type Flushable, leave, reopenOn, stopReopening } from './exit.js';
import { type Gap, mergeGaps, newGap, noticeLine, shapeOf } from './notice.js';
import { type ResolvedOptions, resolveOptions } from './options.js';
import type { Destination, DestinationOptions, DestinationStats } from './types.js';

/** A path that cannot be opened is tried again at most this often. */
const OPEN_RETRY_MS = 1000;
/**
 * Append, created if absent; non-blocking, which changes nothing for a regular file but makes
 * a FIFO given as a path answer EAGAIN when full, as a pipe on a descriptor does.
 */
const OPEN_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
/** How long a full pipe is left before the next try (in the background). */
const AGAIN_RETRY_MS = 10;
/** A failure warned about is warned about again, after writing recovered, this much later. */
const WARN_AGAIN_MS = 60_000;
/** How long a drain at exit sleeps between tries of a full pipe. */
const EXIT_RETRY_MS = 5;

/**
 * The scratch buffer batches are encoded into: a batch of the default `batchBytes` (64 KiB)
 * and a long line after it, at three bytes per UTF-16 unit at most. A larger batch is rarer
 * (a larger `batchBytes`, or what a slow target left held) and gets a buffer of its own.
 */
const SCRATCH_BYTES = 3 * (64 + 16) * 1024;

/** The codes that mean "full for now, try again", not a failure. */
const AGAIN = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

let sleeper: Int32Array | undefined;
/** Blocks the thread for `ms`: only at exit and in `flushSync`, waiting for a full pipe. */
function sleep(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Lines in a buffer (a batch's tail that was not written). */
function countLines(buf: Buffer): number {
  let count = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) count += 1;
  return count;
}

/** Whether `fd` is a pipe or a socket (a closed one fails on its first write, where it counts). */
function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * A pipe or socket on standard output or error is made non-blocking by Node's own stdout
 * (libuv's uv_pipe_open) the first time `process.stdout` is read: reading it here makes sure
 * a full pipe answers EAGAIN instead of stopping the event loop. A file or a terminal is
 * left as it is. Returns whether `fd` is a pipe.
 */
function nonBlocking(fd: number): boolean {
  if (!isPipe(fd)) return false;
  if (fd === 1) void process.stdout;
  else if (fd === 2) void process.stderr;
  return true;
}

/**
 * POSIX's PIPE_BUF on Linux and macOS (at least 512 anywhere): a write to a pipe of at most
 * this many bytes is written whole or not at all, never spliced with another writer's.
 */
const PIPE_BUF = 4096;

/**
 * What one write to a pipe takes of `batch`: whole lines within PIPE_BUF, so that another
 * writer on the same pipe (a second destination, `console.log`) cannot land inside a line
 * when the reader is slow and the pipe takes part of a write. A line longer than that goes
 * alone.
 */
function pipePiece(batch: Buffer): Buffer {
  if (batch.length <= PIPE_BUF) return batch;
  const end = batch.lastIndexOf(10, PIPE_BUF - 1);
  if (end !== -1) return batch.subarray(0, end + 1);
  const first = batch.indexOf(10);
  return first === -1 ? batch : batch.subarray(0, first + 1);
}

interface FlushWaiter {
  /** Settled once this many accepted lines are written or lost. */
  readonly until: number;
  /** Accepted lines lost when it was asked: any more, and it rejects. */
  readonly lost: number;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

class LineDestination implements Destination, Flushable {
  private readonly options: ResolvedOptions;
  private readonly path: string | undefined;
  private readonly label: string;
  private fd: number;

  /** Lines accepted and not yet taken into a batch. */
  private pending = '';
  private pendingLines = 0;
  private pendingSince = 0;
  /** Drops reported by the notices inside `pending`. */
  private pendingGap: Gap | undefined;
  /** The batch being written: its unwritten bytes (a pipe may take part of it). */
  private batch: Buffer | undefined;
  private batchLines = 0;
  private batchSince = 0;
  private batchGap: Gap | undefined;
  private batchStarted = false;
  /**
   * The bytes of every batch that fits, encoded into this one buffer: a new 64 KiB Buffer per
   * batch (Buffer.from) cost more than the write itself, with each one's memory outside V8's
   * heap adding to what triggers its collections. Made on the first batch.
   */
  private scratch: Buffer | undefined;

  /** Bytes held: characters of `pending` plus the unwritten bytes of `batch`. */
  private held = 0;
  /** The current run of lines dropped over `maxBytes`. */
  private overflow: Gap | undefined;
  /** Lines lost to failed writes or opens, not yet reported in the log. */
  private lost: Gap | undefined;
  /** The last line accepted: the notices take its shape. */
  private lastLine = '';

  private timer: NodeJS.Timeout | undefined;
  /** Waiting for a full pipe (EAGAIN): since when nothing was accepted. */
  private blockedSince: number | undefined;
  private nextOpen = 0;
  private openError: unknown;
  private ended = false;

  private accepted = 0;
  private settled = 0;
  /** Accepted lines lost to a failed write or open (flush() rejects when it grows). */
  private lostAccepted = 0;
  private written = 0;
  private dropped = 0;
  private errors = 0;
  private lastError: string | undefined;
  /** Kinds of trouble warned about, with when. */
  private readonly warned = new Map<string, number>();
  /** A write or open failed since writing last worked. */
  private failing = false;
  private waiters: FlushWaiter[] = [];
  private readonly onReopenSignal: (() => void) | undefined;
  /** Writes to a pipe or socket are cut at line ends within PIPE_BUF (see writeBatch). */
  private pipe = false;
  /** A failed write cut a line: the next thing written starts a new line. */
  private cut = false;

  constructor(target: string | number, options: ResolvedOptions) {
    this.options = options;
    if (typeof target === 'number') {
      this.path = undefined;
      this.fd = target;
      this.label = `fd ${target}`;
      this.pipe = nonBlocking(target);
    } else {
      // Resolved now: a later `process.chdir` must not send `reopen()` elsewhere.
      this.path = resolve(target);
      this.fd = -1;
      this.label = target;
      this.open(true);
    }
    const signal = options.reopenOn;
    if (signal !== undefined && this.path !== undefined) {
      this.onReopenSignal = () => this.reopen();
      reopenOn(signal, this.onReopenSignal);
    }
    enter(this);
  }

  write(line: string): boolean {
    const size = line.length;
    if (this.ended) {
      this.drop('ended');
      return false;
    }
    if (this.held + size > this.options.maxBytes) {
      this.drop('maxBytes');
      return false;
    }
    if (this.overflow !== undefined) this.closeOverflow(line);
    if (this.pendingLines === 0) this.pendingSince = Date.now();
    this.pending += line;
    this.pendingLines += 1;
    this.held += size;
    this.accepted += 1;
    this.lastLine = line;
    if (this.blockedSince === undefined) {
      if (this.options.sync || this.pending.length >= this.options.batchBytes) this.writeOut();
      else this.arm();
    }
    return true;
  }

  flush(): Promise<void> {
    if (this.settled === this.accepted) return Promise.resolve();
    const waiter = new Promise<void>((resolve, reject) => {
      this.waiters.push({ until: this.accepted, lost: this.lostAccepted, resolve, reject });
    });
    if (this.blockedSince === undefined) this.writeOut();
    else this.timer?.ref(); // the next try must come, for the promise to settle
    return waiter;
  }

  flushSync(): void {
    this.drain();
  }

  flushAtExit(): void {
    const dropped = this.dropped;
    this.drain();
    // A warning would never be printed now (it is emitted on a later tick): say it at once.
    if (this.dropped > dropped) {
      try {
        writeSync(
          2,
          `httpware: ${this.dropped - dropped} log lines to ${this.label} dropped at exit (${this.lastError})\n`,
        );
      } catch {
        // Standard error is gone or full too: there is no one left to tell.
      }
    }
  }

  flushNow(): void {
    if (this.blockedSince === undefined) this.writeOut();
  }

  end(): void {
    if (this.ended) return;
    this.flushSync();
    this.ended = true;
    this.disarm();
    this.closeFile();
    if (this.onReopenSignal !== undefined) {
      stopReopening(this.options.reopenOn as NodeJS.Signals, this.onReopenSignal);
    }
    leave(this);
  }

  reopen(): void {
    if (this.path === undefined || this.ended) return;
    // Everything held so far belongs to the old file (logrotate has renamed it): written
    // there first, so no line is lost, none written twice, and the order is kept.
    this.flushSync();
    this.closeFile();
    this.open(true);
  }

  stats(): DestinationStats {
    return {
      written: this.written,
      dropped: this.dropped,
      held: this.held,
      errors: this.errors,
      lastError: this.lastError,
    };
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.writeOut();
  };

  private disarm(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Writes batches until none is left or the target is full; a full one is tried later. */
  private writeOut(): void {
    this.disarm();
    if (this.ready(false)) {
      while (this.batch !== undefined || this.takeBatch()) {
        if (!this.writeBatch()) {
          this.waitForTarget();
          break;
        }
      }
    }
    this.settleWaiters();
  }

  /**
   * Writes everything now, sleeping between tries of a full pipe: at exit and in `flushSync`.
   * A pipe that takes nothing for `exitTimeoutMs` (a slow reader that keeps taking is waited
   * for) has what is still held dropped and counted.
   */
  private drain(): void {
    this.disarm();
    let progress = Date.now();
    if (this.ready(true)) {
      while (this.batch !== undefined || this.takeBatch()) {
        const held = this.held;
        if (this.writeBatch()) continue;
        const now = Date.now();
        if (this.held < held) progress = now;
        else if (now - progress >= this.options.exitTimeoutMs) {
          this.failed('ETIMEDOUT', new Error('the target accepted nothing in time'));
          this.loseHeld('ETIMEDOUT');
          break;
        }
        sleep(EXIT_RETRY_MS);
      }
    }
    this.blockedSince = undefined;
    this.settleWaiters();
  }

  /** Whether the file is open; if it cannot be opened, what is held is dropped. */
  private ready(now: boolean): boolean {
    if (this.fd >= 0) return true;
    if (this.open(now)) return true;
    this.loseHeld(codeOf(this.openError));
    return false;
  }

  /** Moves the pending lines into a new batch, after a notice of lines lost before them. */
  private takeBatch(): boolean {
    // Writing has caught up with a run of drops no later line has closed: its notice goes
    // after the lines held, which were all accepted before it.
    if (this.overflow !== undefined) this.closeOverflow(this.lastLine);
    if (this.pending === '') return false;
    let text = this.pending;
    let gap = this.pendingGap;
    if (this.lost !== undefined) {
      // After a line cut by a failed write: until a batch is written whole, each try starts
      // with the newline that ends it (one that fails whole leaves it cut).
      text = (this.cut ? '\n' : '') + noticeLine(this.lost, shapeOf(this.lastLine)) + text;
      gap = mergeGaps(gap, this.lost);
      this.lost = undefined;
    }
    this.held -= this.pending.length;
    this.batch = this.encode(text);
    this.held += this.batch.length;
    this.batchLines = this.pendingLines;
    this.batchSince = this.pendingSince;
    this.batchGap = gap;
    this.batchStarted = false;
    this.pending = '';
    this.pendingLines = 0;
    this.pendingGap = undefined;
    return true;
  }

  /**
   * The batch's bytes: in the scratch buffer when they must fit (three bytes at most per UTF-16
   * unit), in a buffer of their own when more is held (a target that was full or failing). The
   * scratch buffer is free again here: a batch is only taken when the last one is done with.
   */
  private encode(text: string): Buffer {
    if (3 * text.length > SCRATCH_BYTES) return Buffer.from(text);
    this.scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
    return this.scratch.subarray(0, this.scratch.write(text, 0));
  }

  /** Writes the batch: true when it is done with (written or lost), false when full. */
  private writeBatch(): boolean {
    let batch = this.batch as Buffer;
    for (;;) {
      let n: number;
      try {
        n = writeSync(this.fd, this.pipe ? pipePiece(batch) : batch);
      } catch (err) {
        const code = codeOf(err);
        if (AGAIN.has(code)) return false;
        this.failed(code, err);
        this.loseBatch(code);
        return true;
      }
      this.blockedSince = undefined;
      this.held -= n;
      if (n === batch.length) break;
      this.cut = batch[n - 1] !== 10;
      batch = batch.subarray(n);
      this.batch = batch;
      this.batchStarted = true;
    }
    this.written += this.batchLines;
    this.settled += this.batchLines;
    this.batch = undefined;
    this.cut = false;
    if (this.failing) this.recovered();
    return true;
  }

  /**
   * Writing works again after a failed write or open: the same failure is warned about again
   * if it comes back (a disk that fills up again next week), at most once a minute.
   */
  private recovered(): void {
    this.failing = false;
    const now = Date.now();
    for (const [kind, time] of this.warned) {
      if (kind !== 'maxBytes' && kind !== 'ended' && now - time >= WARN_AGAIN_MS) {
        this.warned.delete(kind);
      }
    }
  }

  private waitForTarget(): void {
    const now = Date.now();
    this.blockedSince ??= now;
    if (now - this.blockedSince >= this.options.exitTimeoutMs) {
      this.rejectWaiters(
        Object.assign(
          new Error(
            `the log destination (${this.label}) accepted nothing for ${now - this.blockedSince} ms`,
          ),
          { code: 'ETIMEDOUT' },
        ),
      );
    }
    this.arm(AGAIN_RETRY_MS);
  }

  /**
   * The next try. It does not keep the process alive (what is held is written at exit), except
   * for a `flush()` someone awaits, which must settle.
   */
  private arm(ms = this.options.batchMs): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(this.onTimer, ms);
    if (this.waiters.length === 0) this.timer.unref();
  }

  /** The batch's unwritten lines are dropped (a line cut by the failure counts as dropped). */
  private loseBatch(reason: string): void {
    const batch = this.batch as Buffer;
    const lost = this.batchStarted ? Math.min(countLines(batch), this.batchLines) : this.batchLines;
    this.held -= batch.length;
    this.written += this.batchLines - lost;
    this.settled += this.batchLines;
    this.dropped += lost;
    this.lostAccepted += lost;
    const gap = newGap(reason, this.batchSince);
    gap.lines = lost;
    gap.to = Date.now();
    this.lost = mergeGaps(this.lost, gap);
    // Notices in a batch that never got out still have to be written.
    if (!this.batchStarted && this.batchGap !== undefined) {
      this.lost = mergeGaps(this.lost, this.batchGap);
    }
    this.batch = undefined;
  }

  /** Drops everything held (a path that cannot be opened, a pipe stuck at exit). */
  private loseHeld(reason: string): void {
    if (this.batch !== undefined) this.loseBatch(reason);
    if (this.takeBatch()) this.loseBatch(reason);
  }

  /** A line refused: written after `end()`, or over `maxBytes` (warned once). */
  private drop(reason: 'ended' | 'maxBytes'): void {
    this.dropped += 1;
    const now = Date.now();
    if (reason === 'ended') {
      this.lost = mergeGaps(this.lost, { ...newGap(reason, now), lines: 1 });
      this.warnOnce('ended', 'HTTPWARE_LOGGER_DESTINATION', 'written after end(); dropped');
      return;
    }
    this.overflow ??= newGap('maxBytes', now);
    this.overflow.lines += 1;
    this.overflow.to = now;
    this.warnOnce(
      'maxBytes',
      'HTTPWARE_LOGGER_DROPPED',
      `more than maxBytes (${this.options.maxBytes}) held for a slow target; lines are dropped, counted in stats() and reported in the log`,
    );
  }

  /** The first line accepted after a run of drops: the notice goes where they were. */
  private closeOverflow(line: string): void {
    const gap = this.overflow as Gap;
    this.overflow = undefined;
    const notice = noticeLine(gap, shapeOf(line));
    if (this.pendingLines === 0) this.pendingSince = Date.now();
    this.pending += notice;
    this.held += notice.length;
    this.pendingGap = mergeGaps(this.pendingGap, gap);
  }

  /** Opens the path for appending (created if absent); false, warned once per code, if not. */
  private open(now: boolean): boolean {
    const path = this.path;
    if (path === undefined) return false;
    const time = Date.now();
    if (!now && time < this.nextOpen) return false;
    this.nextOpen = time + OPEN_RETRY_MS;
    try {
      if (this.options.mkdir) mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, OPEN_FLAGS, 0o666);
      this.pipe = isPipe(this.fd);
      return true;
    } catch (err) {
      this.openError = err;
      this.failed(codeOf(err), err);
      return false;
    }
  }

  private closeFile(): void {
    if (this.path === undefined || this.fd < 0) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed under us (EBADF): there is nothing left to release.
    }
    this.fd = -1;
  }

  private failed(code: string, err: unknown): void {
    this.failing = true;
    this.errors += 1;
    this.lastError = code;
    this.warnOnce(
      code,
      'HTTPWARE_LOGGER_DESTINATION',
      'writing failed; its lines are dropped and counted in stats(), and writing is tried again',
      err,
    );
  }

  /**
   * One warning per kind of trouble: `maxBytes` and `ended` once, a failure again after
   * writing recovered (see recovered).
   */
  private warnOnce(
    kind: string,
    code: 'HTTPWARE_LOGGER_DESTINATION' | 'HTTPWARE_LOGGER_DROPPED',
    message: string,
    err?: unknown,
  ): void {
    if (this.warned.has(kind)) return;
    this.warned.set(kind, Date.now());
    warn(code, `logger: destination ${this.label}: ${message}`, err);
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const waiting: FlushWaiter[] = [];
    for (const waiter of this.waiters) {
      if (this.settled < waiter.until) waiting.push(waiter);
      else if (this.lostAccepted > waiter.lost) waiter.reject(this.failure());
      else waiter.resolve();
    }
    this.waiters = waiting;
  }

  private rejectWaiters(err: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(err);
  }

  private failure(): Error {
    const code = this.lastError ?? 'EUNKNOWN';
    return Object.assign(
      new Error(`the log destination (${this.label}) failed (${code}); lines were dropped`),
      { code },
    );
  }
}

/** `destination(target, options)`: see types.ts and docs/logger.md ("Where lines go"). */
export function destination(
  target: string | number,
  options?: DestinationOptions | null,
): Destination {
  const validPath = typeof target === 'string' && target !== '';
  const validFd = typeof target === 'number' && Number.isInteger(target) && target >= 0;
  if (!validPath && !validFd) {
    throw new TypeError('argument target must be a file path or a file descriptor');
  }
  return new LineDestination(target, resolveOptions(options));
}
