// W3C Trace Context: the trace id of a request, from its `traceparent` header, so that a log
// line can be joined to the trace the request belongs to.
// https://www.w3.org/TR/trace-context/#traceparent-header-field-values
//   traceparent = version "-" trace-id "-" parent-id "-" trace-flags
//   version     = 2HEXDIGLC   ; "ff" is invalid
//   trace-id    = 32HEXDIGLC  ; all zeros is invalid
//   parent-id   = 16HEXDIGLC  ; all zeros is invalid
//   trace-flags = 2HEXDIGLC
// Version 00 is exactly these 55 characters. A later version may append fields after another
// "-", so for those only the first 55 characters are read (the spec's forward-compatible rule).

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const LATER_VERSION = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(?:-|$)/;
const ALL_ZEROS = /^0+$/;

/** The trace id of a valid `traceparent` value, or undefined (absent, malformed, repeated). */
export function traceIdOf(header: string | readonly string[] | undefined): string | undefined {
  // node:http joins a repeated unknown header with ", ", which then fails the grammar: a
  // request with two traceparent headers has no trustworthy one.
  if (typeof header !== 'string') return undefined;
  const match = header.startsWith('00-') ? VERSION_00.exec(header) : laterVersion(header);
  if (match == null) return undefined;
  const [, traceId, parentId] = match as unknown as [string, string, string];
  return ALL_ZEROS.test(traceId) || ALL_ZEROS.test(parentId) ? undefined : traceId;
}

function laterVersion(header: string): RegExpExecArray | null {
  // "ff" is forbidden; anything longer than 55 characters needs the extra fields to follow "-".
  if (header.startsWith('ff-')) return null;
  return LATER_VERSION.exec(header);
}
