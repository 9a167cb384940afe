// Why a request failed, kept for its log line: a body parser records the error it passes to
// `next`, and an application records its own with `logger.recordError(req, err)`. The parsers
// and the logger are one bundle, so this one module is what they share.
//
// A WeakMap keyed by the request, rather than a field on it: nothing appears on `req` (whose
// shape node:http's own code reads on every request), and the entry goes with the request.

const failures = new WeakMap<object, unknown>();

/** Whether any failure was ever recorded: until then a line asks the map nothing. */
let anyRecorded = false;

/** Records `err` as the reason `req` failed (the latest one wins); `undefined` clears it. */
export function recordFailure(req: object, err: unknown): void {
  if (err === undefined || err === null) {
    failures.delete(req);
    return;
  }
  anyRecorded = true;
  failures.set(req, err);
}

/** The failure recorded for `req`, or undefined. */
export function failureOf(req: object): unknown {
  return anyRecorded ? failures.get(req) : undefined;
}
