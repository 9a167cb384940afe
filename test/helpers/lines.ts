import { Writable } from 'node:stream';

export interface LineCapture {
  /** A writable stream to hand to the logger's `stream` option. */
  readonly stream: Writable;
  /** Every complete line written so far, without its trailing newline. */
  readonly lines: string[];
  /** Resolves once `count` lines have been written in total (default 1), with all lines. */
  waitFor(count?: number, timeoutMs?: number): Promise<string[]>;
}

/**
 * Captures what a logger writes, split into lines, so a test can await "the line for this
 * request" without sleeping. Pieces that do not end in a newline are held until one comes.
 */
export function captureLines(): LineCapture {
  const lines: string[] = [];
  let pending = '';
  const waiters: Array<{ count: number; resolve: (l: string[]) => void }> = [];
  const wake = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i];
      if (waiter && lines.length >= waiter.count) {
        waiters.splice(i, 1);
        waiter.resolve(lines);
      }
    }
  };
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
      wake();
      callback();
    },
  });
  return {
    stream,
    lines,
    waitFor(count = 1, timeoutMs = 2000) {
      if (lines.length >= count) return Promise.resolve(lines);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`expected ${count} line(s), got ${lines.length}: ${JSON.stringify(lines)}`),
            ),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}
