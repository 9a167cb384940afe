// Facts of HTTP that both the logger and the parsers need, written once.

/**
 * Whether the response to `method` with `status` has no body (RFC 9110, section 6.4.1): to
 * HEAD, or a 1xx (101 included), 204 or 304. Below 100 there is no status to send: node:http
 * refuses one, and a Web Response has one only as `Response.error()` (0), with no body.
 */
export function hasNoBody(method: string | undefined, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || status < 200;
}

/**
 * Whether a request's Content-Length counts as announced: present and a number, as type-is
 * reads it (RFC 9112 sec 6.3: even `0` means a body, of length zero). The logger reads a
 * response's, by other rules: present at all (a Web Response's, which the runtime sends as
 * given), the digits of node:http's written head, or a size to report (`reportedSize`).
 */
export function isContentLength(declared: string | null | undefined): declared is string {
  return declared != null && !Number.isNaN(Number(declared));
}

/** A Content-Length as a number, or null when there is none (or it is not a number). */
export function contentLengthOf(declared: string | null | undefined): number | null {
  return isContentLength(declared) ? Number.parseInt(declared, 10) : null;
}

/**
 * A Content-Length as a size the logger reports (a Web Response's, a request's in the
 * `metrics`): a non-negative integer written whole, else undefined (empty, a list of values, a
 * fraction, a number past 2^53).
 */
export function reportedSize(declared: string): number | undefined {
  const n = Number(declared);
  return declared !== '' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
