// Writing lines to the configured stream without letting the stream take the server down.

import type { LogStream } from '../types.js';
import { warn } from './warnings.js';

interface Emitter {
  on(event: 'error', listener: (err: unknown) => void): unknown;
  listenerCount(event: 'error'): number;
}

function isEmitter(stream: object): stream is Emitter {
  const s = stream as Partial<Emitter>;
  return typeof s.on === 'function' && typeof s.listenerCount === 'function';
}

const guarded = new WeakSet<object>();
const warned = new WeakSet<object>();

/**
 * An 'error' event with no listener throws and ends the process. Each stream a logger writes
 * to gets one listener (however many loggers share it) that turns the error into a warning,
 * once per stream, and stays silent when the application listens for 'error' itself.
 */
export function guardStreamErrors(stream: LogStream): void {
  if (guarded.has(stream) || !isEmitter(stream)) return;
  guarded.add(stream);
  stream.on('error', (err) => {
    if (stream.listenerCount('error') > 1 || warned.has(stream)) return;
    warned.add(stream);
    warn('HTTPWARE_LOGGER_STREAM', 'logger: the log stream emitted an error; lines are lost', err);
  });
}

/**
 * A stream's `write` returns a boolean (Node's streams) or nothing; an `async write` returns a
 * promise, whose rejection nobody else would handle: Node ends the process on an unhandled
 * rejection. Such a failure is reported as a throwing `write` is. The common return costs one
 * typeof test.
 */
export function catchAsyncWrite(result: unknown, onError: (err: unknown) => void): void {
  if (typeof result === 'object' && result !== null) {
    const then = (result as { then?: unknown }).then;
    if (typeof then === 'function') then.call(result, undefined, onError);
  }
}
