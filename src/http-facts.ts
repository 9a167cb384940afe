// Facts of HTTP that both the logger and the parsers need, written once.

/**
 * Whether the response to `method` with `status` has no body (RFC 9110, section 6.4.1): to
 * HEAD, or a 1xx (101 included), 204 or 304. Below 100 there is no status to send: node:http
 * refuses one, and a Web Response has one only as `Response.error()` (0), with no body.
 */
export function hasNoBody(method: string | undefined, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || status < 200;
}
