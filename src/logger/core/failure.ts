// The failure of a request as its log line reports it: `error.type`, a stable class of error
// to count and alert on, and `error.message`, for a person. What is recorded comes from a body
// parser (src/failures.ts) or from the application (`logger.recordError`).
//
// The body never reaches the line. A JSON parse error's message quotes the body on V8 ("Unexpected
// token 'x', "{"password":"hunter2" x" is not valid JSON") and on JavaScriptCore, so the
// message of `entity.parse.failed` is rewritten from what says where the body broke, never
// from what it held. Any other error a parser made or adopted (a schema's, a verify's) has a
// text of httpware's own set beside it (src/failures.ts), which the line gives in place of
// its message. An error the application records that no parser touched keeps its message:
// that text is the application's own.
//
// A logger created with `errorMessage: 'verbatim'` gives every message as it is: its lines say
// so (line.ts), so loggers with the default pay nothing for the option.

import { failureOf, LOG_TEXTS, logTextOf } from '../../failures.js';
import type { LogRequest } from '../types.js';
import { currentLine } from './line.js';

/** OpenTelemetry's `error.type` when nothing better names the error. */
const OTHER = '_OTHER';

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The class of an error: its `type` (httpware's, body-parser's and http-errors' convention),
 * else its `code` (Node's `ECONNRESET`, `ERR_...`), else its class name (`TypeError`, a class
 * of the application's), else `_OTHER`.
 */
export function errorTypeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return OTHER;
  const { type, code, name } = err as { type?: unknown; code?: unknown; name?: unknown };
  if (nonEmpty(type)) return type;
  if (nonEmpty(code)) return code;
  const constructorName = (err as { constructor?: { name?: unknown } }).constructor?.name;
  if (nonEmpty(constructorName) && constructorName !== 'Object') return constructorName;
  return nonEmpty(name) ? name : OTHER;
}

/** `at position 12`, as V8's JSON.parse says where the text broke; nothing of the text. */
const POSITION = /\bat position (\d+)/;

/**
 * What a parse failure says without the body: for JSON, where the text broke when the engine
 * says so; for anything else a parser or a reviver threw, only that it failed.
 */
function parseFailureMessage(err: object): string {
  if (!(err instanceof SyntaxError)) return LOG_TEXTS['entity.parse.failed'];
  const position = POSITION.exec(err.message)?.[1];
  return position === undefined ? 'invalid JSON' : `invalid JSON at position ${position}`;
}

/** The message of an error, with no part of a request body; undefined when it has none. */
export function errorMessageOf(err: unknown): string | undefined {
  if (typeof err === 'string') return err === '' ? undefined : err;
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, message } = err as { type?: unknown; message?: unknown };
  if (currentLine()?.verbatim !== true) {
    // Whoever made it (httpware, body-parser, Express's parsers), this kind may quote the body.
    if (type === 'entity.parse.failed') return parseFailureMessage(err);
    // So may whatever a verify threw: body-parser 1.x and 2 keep its message (Express 4's
    // `express.json({ verify })` included), and so does httpware's err.message.
    if (type === 'entity.verify.failed') return LOG_TEXTS[type];
    const text = logTextOf(err);
    if (text !== undefined) return text;
  }
  return nonEmpty(message) ? message : undefined;
}

/** `:error-type`: the class of the error recorded for the request, if any. */
export function errorType(req: LogRequest): string | undefined {
  const err = failureOf(req);
  return err === undefined ? undefined : errorTypeOf(err);
}

/** `:error-message`: the message of the error recorded for the request, if any. */
export function errorMessage(req: LogRequest): string | undefined {
  const err = failureOf(req);
  return err === undefined ? undefined : errorMessageOf(err);
}
