// What a door does with a request before its body enters the pipeline (pipeline.ts), written
// once for both doors (read-body.ts for a Node request, web-body.ts for a Web Request):
// - a body is read by one `read` only (claimBody);
// - a client that left before `read` was called gets one error, whichever door (abortedBeforeRead);
// - the Content-Type is parsed and matched against the `type` option, the last header's answer
//   kept for the next request (ContentTypes), and `read` refuses a body of another type
//   (typeMatches). The middleware passes such a request over instead; it matches the same way.

import { createError, type HttpwareError } from '../errors.js';
import { type ContentType, parseContentType } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import type { BodyFormat, Pipeline } from './pipeline.js';

/**
 * How long a Web body may take to arrive unless `bodyTimeout` says otherwise. Node's server
 * ends a request after 300 s (`requestTimeout`) and Bun's after 10 s without a byte; Deno
 * never ends a body that keeps trickling. One minute lets a slow client send the default
 * 100 KB limit at under 2 KB/s, and ends a body trickled a byte every few seconds long before
 * it could hold connections by the thousand.
 */
export const WEB_BODY_TIMEOUT_MS = 60_000;

/**
 * The requests (or the streams standing for their bodies) a `read` was called for: a second
 * `read` of one, concurrent or later, is refused rather than sharing its body with the first
 * (each would get part of it, or both all of it through two 'data' listeners). Only `read`
 * uses it; the Node middleware asks the request itself whether its body is gone.
 */
const readsStarted = new WeakSet<object>();

/** Whether a `read` was already called for this body. */
export function readStarted(body: object): boolean {
  return readsStarted.has(body);
}

/** Marks this body as being read by a `read` (see readsStarted). */
export function claimBody(body: object): void {
  readsStarted.add(body);
}

/** A request whose client left before `read` was called: nothing of its body was read. */
export function abortedBeforeRead(length: number | null): HttpwareError {
  return createError('request.aborted', {
    code: 'ECONNABORTED',
    expected: length,
    length,
    received: 0,
  });
}

/**
 * A parser's resolved options and format, as `read` of a Web Request reads with them, and its
 * Content-Type parses (the last header's is kept, as the middleware does on Node). A pipeline
 * holds nothing of a request.
 */
export interface WebPipeline {
  readonly options: ResolvedOptions;
  readonly format: BodyFormat;
  readonly types: ContentTypes;
}

export function webPipeline({ options, format }: Pipeline): WebPipeline {
  return { options, format, types: new ContentTypes(options) };
}

/**
 * One parser's Content-Type parses. Clients send the same Content-Type header request after
 * request: the last header's parse and whether the `type` option matched it are kept, which
 * spares most requests an allocation, a scan of the header and the matching. A ContentType is
 * never changed once made, so sharing it between requests is safe; a cache holds nothing of a
 * request but that header.
 */
export class ContentTypes {
  private header: string | undefined = undefined;
  private contentType: ContentType = parseContentType(undefined);
  /** Whether the `type` option matched the last Content-Type given to `of` (false: a function). */
  matched = false;

  constructor(readonly options: ResolvedOptions) {}

  /** The header's parse; `matched` then says whether the `type` option takes it. */
  of(header: string | null | undefined): ContentType {
    if (header !== this.header || header == null) {
      const contentType = parseContentType(header ?? undefined);
      const { options } = this;
      this.matched = options.typeFunction === null && options.matchesType(contentType.type);
      this.contentType = contentType;
      this.header = header ?? undefined;
    }
    return this.contentType;
  }
}

/**
 * `read`'s type check, on either door: whether the body is of the parser's type, by the
 * application's type function given the request, or by the `type` option's match of the
 * Content-Type just parsed by `types`. A request without a body has no type to check (RFC 9112
 * sec 6.3: a body of length zero). What the type function throws is handed to `reject`, the
 * read's, and the answer is then null: the read is over.
 */
export function typeMatches(
  types: ContentTypes,
  request: unknown,
  hasBody: boolean,
  reject: (reason: unknown) => void,
): boolean | null {
  if (!hasBody) return true;
  const typeFunction = types.options.typeFunction;
  if (typeFunction === null) return types.matched;
  try {
    return Boolean(typeFunction(request as never));
  } catch (thrown) {
    reject(thrown);
    return null;
  }
}

/** `read`'s refusal of a body of another type: a 415 naming the media type it came with. */
export function unsupportedType(contentType: ContentType): HttpwareError {
  return createError('media.type.unsupported', { mediaType: contentType.type ?? '' });
}
