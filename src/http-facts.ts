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
 * given), the digits of node:http's written head, or a non-negative integer to report.
 */
export function isContentLength(declared: string | null | undefined): declared is string {
  return declared != null && !Number.isNaN(Number(declared));
}

/** A Content-Length as a number, or null when there is none (or it is not a number). */
export function contentLengthOf(declared: string | null | undefined): number | null {
  return isContentLength(declared) ? Number.parseInt(declared, 10) : null;
}
