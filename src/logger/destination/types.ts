// The public types of `destination(target, options)` (docs/logger.md, "Where lines go").

/** Options of `destination(target, options)`; all optional, resolved when it is made. */
export interface DestinationOptions {
  /** Create the file's missing parent folders (a path target only). Default false. */
  mkdir?: boolean | undefined;
  /**
   * Write each line at once (`fs.writeSync`), as morgan's streams do, instead of in batches.
   * A pipe that is full still never blocks: the line is held and written when it drains.
   * Default false.
   */
  sync?: boolean | undefined;
  /** Held bytes that start a write at once, without waiting for `batchMs`. Default 65536. */
  batchBytes?: number | undefined;
  /** Milliseconds the first line of a batch waits for others before it is written. Default 20. */
  batchMs?: number | undefined;
  /**
   * The most bytes held in memory (lines waiting for a slow or stuck target). Past it, lines
   * are dropped and counted, and a line in the log says how many, once writing catches up.
   * Default 16 MiB.
   */
  maxBytes?: number | undefined;
  /**
   * A signal that reopens the path (logrotate's `postrotate` sends it): `'SIGHUP'`,
   * `'SIGUSR1'` or `'SIGUSR2'`. A path target only. Default: none.
   */
  reopenOn?: 'SIGHUP' | 'SIGUSR1' | 'SIGUSR2' | false | undefined;
  /**
   * At exit and in `flushSync()`, how long a pipe that accepts nothing is waited for before
   * what is held is dropped (counted); a reader that keeps taking is waited for. A file never
   * waits. Default 1000 ms.
   */
  exitTimeoutMs?: number | undefined;
}

/** What a destination has done so far: `destination(...).stats()`. */
export interface DestinationStats {
  /** Lines written to the target. */
  readonly written: number;
  /** Lines dropped: over `maxBytes`, a failed write or open, or written after `end()`. */
  readonly dropped: number;
  /** Bytes held in memory now, waiting to be written. */
  readonly held: number;
  /** Writes and opens that failed (a full pipe that is waited for is not a failure). */
  readonly errors: number;
  /** The code of the last failure (`ENOSPC`, `EPIPE`, `EBADF`, `ENOENT`...), if any. */
  readonly lastError: string | undefined;
}

/**
 * Where a logger's lines go: give it as the `stream` option. Lines are written in batches
 * (or at once with `sync`), held up to `maxBytes` while the target is slow, and written
 * synchronously when the process ends (exit, end of the event loop, an uncaught exception,
 * SIGTERM, SIGINT or SIGHUP with no handler of the application's).
 */
export interface Destination {
  /** Takes one line (the logger's, ending with "\n"). Never throws, never blocks on a reader. */
  write(line: string): boolean;
  /**
   * Settles once the lines held when it was called are written (resolves) or could not be
   * (rejects: the target is broken, or a pipe accepted nothing for `exitTimeoutMs`).
   */
  flush(): Promise<void>;
  /**
   * Writes what is held now, synchronously. The thread waits while a pipe's reader takes it;
   * a pipe that takes nothing for `exitTimeoutMs` has what is left dropped (counted).
   */
  flushSync(): void;
  /** Writes what is held, closes a file it opened, and drops (counts) lines written later. */
  end(): void;
  /** Closes and opens the path again (after logrotate renamed it); nothing for a descriptor. */
  reopen(): void;
  /** Counts of lines written and dropped, bytes held, failures. */
  stats(): DestinationStats;
}

/** `destination(target, options)`: a file path (appended to) or a file descriptor (1, 2). */
export type DestinationFactory = (
  target: string | number,
  options?: DestinationOptions | null,
) => Destination;
