// morgan's deprecated `buffer` option, kept because existing applications (and morgan's own
// tests) still pass it: lines are collected and written to the stream together, in one
// `write`, `interval` milliseconds after the first line of a batch.

import type { LogStream } from '../types.js';
import { catchAsyncWrite } from './stream.js';

/** morgan's default flush interval, used when `buffer` is truthy but not a number. */
const DEFAULT_INTERVAL_MS = 1000;

/**
 * The flush interval the `buffer` option asks for, or undefined for no buffering. As in
 * morgan: any falsy value (0 included) turns buffering off, a number is the interval in
 * milliseconds, any other truthy value means the default interval.
 */
export function bufferInterval(buffer: unknown): number | undefined {
  if (!buffer) return undefined;
  return typeof buffer === 'number' ? buffer : DEFAULT_INTERVAL_MS;
}

let deprecationShown = false;

/** Says once per process that `buffer` is deprecated (Node honours --no-deprecation). */
export function warnBufferDeprecated(): void {
  if (deprecationShown) return;
  deprecationShown = true;
  process.emitWarning(
    'logger: the buffer option is deprecated (as in morgan); give a buffering stream instead',
    { type: 'DeprecationWarning', code: 'HTTPWARE_LOGGER_BUFFER' },
  );
}

/**
 * A minimal stream that batches lines for `stream`, as morgan's buffer stream does. It is
 * not in object mode, so objects from a format function are written as text, as in morgan.
 * The timer is not unref'd (as in morgan), so pending lines are written before the process
 * exits on its own. A throwing `write` loses the batch and is reported through `onError`.
 */
export function bufferedStream(
  stream: LogStream,
  interval: number,
  onError: (err: unknown) => void,
): LogStream {
  const lines: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = lines.join('');
    lines.length = 0;
    try {
      catchAsyncWrite(stream.write(batch), onError);
    } catch (err) {
      onError(err);
    }
  };
  return {
    write(line: string) {
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, interval);
      }
      lines.push(line);
      return true;
    },
  };
}
