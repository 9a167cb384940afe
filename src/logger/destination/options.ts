// `destination`'s options, resolved once: a bad one is a TypeError when it is made.

import { constants } from 'node:os';
import type { DestinationOptions } from './types.js';

/**
 * The defaults, chosen by measurement (docs/benchmarks.md): past about 20 ms and 64 KiB a
 * batch, longer batches saved no measurable CPU over loopback, while each millisecond more is
 * a millisecond of lines a SIGKILL or a power loss can take. 16 MiB held is about a minute of
 * `combined` lines at 1,500 requests a second, or 3 s at 25,000.
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

function signalOf(value: unknown): NodeJS.Signals | undefined {
  if (value === undefined || value === false) return undefined;
  if (
    typeof value !== 'string' ||
    !(value in constants.signals) ||
    value === 'SIGKILL' ||
    value === 'SIGSTOP'
  ) {
    throw new TypeError('option reopenOn must be a signal name such as "SIGHUP", or false');
  }
  return value as NodeJS.Signals;
}

export function resolveOptions(given: DestinationOptions | null | undefined): ResolvedOptions {
  if (given !== undefined && given !== null && typeof given !== 'object') {
    throw new TypeError('argument options must be an object');
  }
  const options = given ?? {};
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
