// The door-neutral factory of a parser: given how to resolve its options into a Pipeline
// (json.ts, raw.ts, text.ts, urlencoded.ts), the parser as users call it. Its two forms share
// one set of options and one pipeline, whichever door the request comes in by:
// - called with options, the Node middleware (read-body.ts's createReader);
// - its `read(request, options)`, a promise, given a Node request (read-body.ts's readBody) or
//   a Web `Request` (web-body.ts's readWebBody).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pipeline } from './pipeline.js';
import { createReader, readBody } from './read-body.js';
import type { ParserMiddleware } from './types.js';
import { isWebRequest, readWebBody, type WebPipeline, webPipeline } from './web-body.js';

/**
 * A parser: called with options, its middleware; its `read(req, options)`, the same pipeline as
 * a promise. `prepare` resolves the options (a bad one throws its TypeError: at creation for
 * the middleware, as the rejection of `read`). `read` has no creation step, so the options it
 * is given are resolved on every call: a few object reads and, for a `type`, a string split
 * (the caller's object may have changed since the last call, so it is never cached).
 */
export function definePipeline<Parser>(
  name: string,
  prepare: (options?: never) => Pipeline,
): Parser {
  const parser = (options?: never): ParserMiddleware => {
    const { options: resolved, format } = prepare(options);
    return createReader(resolved, format);
  };
  // A Web `read` without options (the common call in a fetch handler) resolves them once, on
  // first use: resolving builds the type matcher and the parser's closures, which on a small
  // body cost as much as reading it. A pipeline holds nothing of a request, so one serves all.
  let defaults: WebPipeline | null = null;
  const read = (req: IncomingMessage, options?: never): Promise<unknown> => {
    let pipeline: Pipeline;
    let res: ServerResponse | null;
    try {
      if (isWebRequest(req)) {
        if (options !== undefined) return readWebBody(req, webPipeline(prepare(options)));
        defaults ??= webPipeline(prepare());
        return readWebBody(req, defaults);
      }
      if (typeof req?.on !== 'function' || typeof req.headers !== 'object') {
        throw new TypeError('read needs the request (an http.IncomingMessage or a Web Request)');
      }
      res = responseOf(req, options);
      pipeline = prepare(options);
    } catch (err) {
      return Promise.reject(err);
    }
    return readBody(req, res, pipeline.options, pipeline.format);
  };
  Object.defineProperty(parser, 'name', { value: name });
  return Object.assign(parser, { read }) as Parser;
}

/** The `res` option of `read`, or Express's `req.res`, or null. */
function responseOf(req: IncomingMessage, options: unknown): ServerResponse | null {
  const given = (options as { res?: unknown } | null | undefined)?.res;
  const res = given ?? (req as IncomingMessage & { res?: unknown }).res ?? null;
  if (res !== null && typeof (res as Partial<ServerResponse>).setHeader !== 'function') {
    throw new TypeError('option res must be the response (an http.ServerResponse)');
  }
  return res as ServerResponse | null;
}
