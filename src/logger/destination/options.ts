// `destination`'s options, resolved once: a bad one is a TypeError when it is made.

import { isUnset } from '../core/option-off.js';
import type { DestinationOptions } from './types.js';

/**
 * The defaults (docs/logger.md, "Where lines go"). Measured at a steady 5,000 lines a second on
 * a loaded 2-core machine, CPU per line above a stream that discards them: one write per line
 * (`sync`) 4.6-5.2 us, batches of 1 ms 3.5-4.0 us, 20 ms 2.8-2.9 us, 100 ms 1.2 us. 20 ms keeps
 * what a SIGKILL can take to a few dozen lines at that rate; under heavy load 64 KiB (about 300
 * `combined` lines) fills first, so batches stay large where the CPU matters. 16 MiB held is
 * about a minute of `combined` lines at 1,500 requests a second, or 3 s at 25,000.
 */
export const DEFAULTS = {
  batchBytes: 64 * 1024,
  batchMs: 20,
  maxBytes: 16 * 1024 * 1024,
  exitTimeoutMs: 1000,
} as const;

export interface ResolvedOptions {
  readonly mkdir: boolean;
  readonly sync: boolean;
  readonly batchBytes: number;
  readonly batchMs: number;
  readonly maxBytes: number;
  readonly reopenOn: NodeJS.Signals | undefined;
  readonly exitTimeoutMs: number;
}

function flag(options: DestinationOptions, name: 'mkdir' | 'sync'): boolean {
  const value = options[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`option ${name} must be a boolean`);
  return value;
}

function amount(
  options: DestinationOptions,
  name: 'batchBytes' | 'batchMs' | 'maxBytes' | 'exitTimeoutMs',
  min: number,
): number {
  const value = options[name];
  if (value === undefined) return DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new TypeError(`option ${name} must be a finite number of at least ${min}`);
  }
  return value;
}

/**
 * The signals a reopen may listen for: the ones log rotators send (logrotate's postrotate,
 * nginx's convention is SIGUSR1). Listening for SIGTERM or SIGINT would keep the process
 * from ending by them.
 */
const REOPEN_SIGNALS: ReadonlySet<string> = new Set(['SIGHUP', 'SIGUSR1', 'SIGUSR2']);

function signalOf(value: unknown): NodeJS.Signals | undefined {
  if (value === undefined || value === false) return undefined;
  if (typeof value !== 'string' || !REOPEN_SIGNALS.has(value)) {
    throw new TypeError('option reopenOn must be "SIGHUP", "SIGUSR1", "SIGUSR2" or false');
  }
  return value as NodeJS.Signals;
}

const KNOWN: ReadonlySet<string> = new Set([
  'mkdir',
  'sync',
  'batchBytes',
  'batchMs',
  'maxBytes',
  'reopenOn',
  'exitTimeoutMs',
]);

export function resolveOptions(given: DestinationOptions | null | undefined): ResolvedOptions {
  if (!isUnset(given) && typeof given !== 'object') {
    throw new TypeError('argument options must be an object');
  }
  const options = given ?? {};
  for (const name of Object.keys(options)) {
    if (!KNOWN.has(name)) throw new TypeError(`unknown option ${name} of destination()`);
  }
  return {
    mkdir: flag(options, 'mkdir'),
    sync: flag(options, 'sync'),
    batchBytes: amount(options, 'batchBytes', 1),
    batchMs: amount(options, 'batchMs', 0),
    maxBytes: amount(options, 'maxBytes', 1),
    reopenOn: signalOf(options.reopenOn),
    exitTimeoutMs: amount(options, 'exitTimeoutMs', 0),
  };
}
