// Process warnings in tests. The test run fails on any warning printed to its output
// (scripts/run-tests.mjs), so a test that provokes one on purpose takes it here instead:
// collected for the test to assert, never printed.
import { afterEach, beforeEach } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

export type ProcessWarning = Error & { code?: string };

export interface WarningCapture {
  /** The warnings of the current test so far. */
  readonly all: () => readonly ProcessWarning[];
  /** How many warnings the file's tests have had so far. */
  readonly total: () => number;
  /** The current test's warnings with this code, once the pending ones were delivered. */
  of(code: string): Promise<ProcessWarning[]>;
}

/**
 * From each test of the calling file to its end: warnings are collected, and Node's printer
 * (the process's own 'warning' listener) is set aside so they are not written to stderr.
 */
export function captureWarnings(): WarningCapture {
  let warnings: ProcessWarning[] = [];
  let total = 0;
  let printers: Array<(...args: unknown[]) => void> = [];
  const collect = (warning: ProcessWarning) => {
    total += 1;
    warnings.push(warning);
  };
  beforeEach(() => {
    warnings = [];
    printers = process.listeners('warning') as Array<(...args: unknown[]) => void>;
    process.removeAllListeners('warning');
    process.on('warning', collect);
  });
  afterEach(async () => {
    // process.emitWarning delivers on the next tick: let the test's last ones arrive here.
    await delay(0);
    process.off('warning', collect);
    for (const printer of printers) process.on('warning', printer);
  });
  return {
    all: () => warnings,
    total: () => total,
    async of(code) {
      await delay(10);
      return warnings.filter((w) => w.code === code);
    },
  };
}

/**
 * Runs `enable` (node:test's mock timers) without the ExperimentalWarning Node 20 prints the
 * first time they are used: they are the tests' tool, not the code under test.
 */
export function quietly<T>(enable: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/MockTimers/.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return enable();
  } finally {
    process.emitWarning = emit;
  }
}
