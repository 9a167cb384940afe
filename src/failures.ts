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

// What a log line says of an error a parser made or adopted: text httpware wrote, never the
// error's own message, which may quote what the client sent (a validator printing a value, a
// schema's transform throwing `"SeCrEt…" is not valid JSON`, a verify quoting the body). Keyed
// by the error itself, so the text follows the error wherever it is recorded: by the parser,
// or again by the application's `logger.recordError(req, err)`.
const logTexts = new WeakMap<object, string>();

/**
 * What a line says of a body that `verify` refused, or that a parser or a reviver failed on,
 * whoever made the error (httpware, body-parser): never what was thrown, which may quote it.
 */
export const LOG_TEXTS = Object.freeze({
  'entity.verify.failed': 'verify refused the body',
  'entity.parse.failed': 'the body could not be parsed',
} as const);

/** Sets what a line says of `err` in place of its message (see logTexts). */
export function setLogText(err: object, text: string): void {
  logTexts.set(err, text);
}

/** The text set for `err` by a parser, or undefined (an error the application made). */
export function logTextOf(err: object): string | undefined {
  return logTexts.get(err);
}
