// Errors as answers: an httpware error becomes an RFC 9457 problem document
// (`application/problem+json`), the same for a Web handler (`toResponse(err)`, a Response) and
// for Express or Connect (`problemHandler()`, an error middleware), so one API answers the same
// way from both kinds of server.
//
// The document says what the client may know and nothing more. `type` is `about:blank`
// (RFC 9457 sec 4.2.1: the problem is what its status says; `title` is then the status's own
// phrase), and httpware's stable type travels as the extension member `code`, which clients
// match on. `detail` is given for a 4xx only (`expose`), and never quotes the body: the texts of
// a parse, verify or inflate failure (a SyntaxError quoting the JSON, a verify quoting what it
// refused) are replaced by fixed ones. A 422 lists its issues: paths and messages, as the error
// already bounds and cleans them (src/parsers/schema.ts). No stack, no cause, no header value
// beyond the names the registry's messages hold. Anything that is not an httpware error is a
// bare 500: its message and status are the application's to show, not this function's.

import { STATUS_CODES } from 'node:http';
import { type AnyHttpwareError, isHttpwareError } from '../errors.js';
import { LOG_TEXTS } from '../failures.js';
import type { ProblemDocument, ProblemHandler } from './types.js';

/** The media type of RFC 9457's JSON problem documents. */
const PROBLEM_JSON = 'application/problem+json';

/** Fixed details for the kinds whose message may quote what the client sent. */
const FIXED_DETAILS: Readonly<Partial<Record<AnyHttpwareError['type'], string>>> = {
  ...LOG_TEXTS,
  'entity.inflate.failed': 'the body could not be decompressed',
};

/** The problem document for any thrown value: httpware's errors in full, anything else a 500. */
export function problemOf(err: unknown): ProblemDocument {
  if (!isHttpwareError(err)) return { type: 'about:blank', title: titleOf(500), status: 500 };
  const status = err.status;
  const problem: Record<string, unknown> = { type: 'about:blank', title: titleOf(status), status };
  if (err.expose) problem.detail = bounded(FIXED_DETAILS[err.type] ?? err.message);
  problem.code = err.type;
  if (err.type === 'entity.validation.failed') {
    problem.issues = err.issues.map(({ path, message }) => ({ path: [...path], message }));
  }
  return problem as unknown as ProblemDocument;
}

/** Longest detail sent: a message may quote a value of the client's (a charset, a type). */
const DETAIL_MAX = 200;

function bounded(detail: string): string {
  return detail.length <= DETAIL_MAX ? detail : `${detail.slice(0, DETAIL_MAX - 1)}…`;
}

function titleOf(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * A parser error as a Web `Response`: its status, `Content-Type: application/problem+json`, and
 * the problem document (see the header comment). Any other value is a generic 500.
 */
export function toResponse(err: unknown): Response {
  const problem = problemOf(err);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_JSON },
  });
}

/**
 * An Express or Connect error handler that answers as `toResponse` does: the same status,
 * headers and document. A response whose headers are already sent cannot be answered again:
 * the error goes on to `next`, whose default handler closes the connection.
 */
export function problemHandler(): ProblemHandler {
  return function httpwareProblemHandler(err, _req, res, next) {
    if (res.headersSent) {
      next(err);
      return;
    }
    const problem = problemOf(err);
    const body = JSON.stringify(problem);
    res.statusCode = problem.status;
    res.setHeader('Content-Type', PROBLEM_JSON);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  };
}
