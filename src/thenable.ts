// Whether a value is a thenable (Promises/A+, section 1.1: "an object or function that
// defines a then method"): what `await` and `Promise.resolve` adopt. A handler, a verify or a
// schema may answer with one instead of a value.

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
