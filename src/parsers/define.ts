// The door-neutral factory of a parser: given how to resolve its options into a Pipeline
// (json.ts, raw.ts, text.ts, urlencoded.ts), the parser as users call it. Its two forms share
// one set of options and one pipeline, whichever door the request comes in by:
// - called with options, the Node middleware (read-body.ts's createReader);
// - its `read(request, options)`, a promise, given a Node request (read-body.ts's readBody) or
//   a Web `Request` (web-body.ts's readWebBody);
// - its `reader(options)`: `read` for Web Requests, its options resolved once, as the
//   middleware's are (the fast form for a fetch handler).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pipeline } from './pipeline.js';
import { type WebPipeline, webPipeline } from './prologue.js';
import { createReader, nodeRequestBehind, readBehind, readBody } from './read-body.js';
import type { ParserMiddleware, WebRequest } from './types.js';
import { isWebRequest, readWebBody } from './web-body.js';

/**
 * A parser: called with options, its middleware; its `read(req, options)`, the same pipeline as
 * a promise; its `reader(options)`, `read` for Web Requests with the options resolved once.
 * `prepare` resolves the options (a bad one throws its TypeError: at creation for the
 * middleware and a reader, as the rejection of `read`).
 */
export function definePipeline<Parser>(
  name: string,
  prepare: (options?: never) => Pipeline,
): Parser {
  const parser = (options?: never): ParserMiddleware => {
    const { options: resolved, format } = prepare(options);
    return createReader(resolved, format);
  };
  const webPipelines = new WebPipelines(prepare);
  const read = (req: IncomingMessage, options?: never): Promise<unknown> => {
    let pipeline: Pipeline;
    let res: ServerResponse | null;
    try {
      if (isWebRequest(req)) return readWeb(req, webPipelines.of(options));
      checkNodeRequest(req);
      res = responseOf(req, options);
      pipeline = prepare(options);
    } catch (err) {
      return Promise.reject(err);
    }
    return readBody(req, res, pipeline.options, pipeline.format);
  };
  const reader = (options?: never) => {
    const pipeline = webPipeline(prepare(options));
    return (request: unknown): Promise<unknown> =>
      isWebRequest(request)
        ? readWeb(request, pipeline)
        : Promise.reject(
            new TypeError('a reader reads a Web Request: give a Node request to read'),
          );
  };
  Object.defineProperty(parser, 'name', { value: name });
  return Object.assign(parser, { read, reader }) as Parser;
}

/**
 * A Web Request's body: off the Node request behind it when there is one to read directly
 * (srvx's, see nodeRequestBehind), else off its stream.
 */
function readWeb(request: WebRequest, pipeline: WebPipeline): Promise<unknown> {
  const node = nodeRequestBehind(request, pipeline.options);
  return node === null ? readWebBody(request, pipeline) : readBehind(request, node, pipeline);
}

function checkNodeRequest(req: IncomingMessage): void {
  if (typeof req?.on !== 'function' || typeof req.headers !== 'object') {
    throw new TypeError('read needs the request (an http.IncomingMessage or a Web Request)');
  }
}

/**
 * The pipelines `read` of a Web Request uses, by its options. `read` has no creation step, and
 * resolving options builds the type matcher and the parser's closures, which on a small body
 * cost as much as reading it; so a pipeline (which holds nothing of a request) is kept for the
 * options it was resolved from and used again while they are the same:
 * - no options (the common call in a fetch handler): resolved once, on first use;
 * - an options object seen before, or the same values as the last one (options written inline,
 *   `json.read(request, { limit: '1mb' })`, are a new object each call): resolved once while
 *   its values stay the same. The values are compared on every call, as the caller may change
 *   its object between calls. Only options whose values are all primitives or functions are
 *   kept so: an object value (a `schema`, a `type` list) may change inside without its identity
 *   changing, and is resolved on every call, as `reader(options)` is made for.
 */
class WebPipelines {
  private defaults: WebPipeline | null = null;
  private readonly byObject = new WeakMap<object, Resolved>();
  private last: Resolved | null = null;

  constructor(private readonly prepare: (options?: never) => Pipeline) {}

  of(options: unknown): WebPipeline {
    if (options === undefined) {
      this.defaults ??= webPipeline(this.prepare());
      return this.defaults;
    }
    if (typeof options !== 'object' || options === null) {
      return webPipeline(this.prepare(options as never));
    }
    const known = this.byObject.get(options) ?? this.last;
    if (known !== null && sameValues(options, known.values)) return known.pipeline;
    const pipeline = webPipeline(this.prepare(options as never));
    const values = valuesOf(options);
    if (values !== null) {
      const resolved = { values, pipeline };
      this.byObject.set(options, resolved);
      this.last = resolved;
    }
    return pipeline;
  }
}

/** A pipeline and the options' keys and values it was resolved from, flat: key, value, ... */
interface Resolved {
  readonly values: readonly unknown[];
  readonly pipeline: WebPipeline;
}

/** The options' keys and values (as the options' resolution reads them: inherited too), or null when one is an object. */
function valuesOf(options: object): unknown[] | null {
  const values: unknown[] = [];
  for (const key in options) {
    const value = (options as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) return null;
    values.push(key, value);
  }
  return values;
}

function sameValues(options: object, values: readonly unknown[]): boolean {
  let index = 0;
  for (const key in options) {
    if (values[index] !== key || values[index + 1] !== (options as Record<string, unknown>)[key]) {
      return false;
    }
    index += 2;
  }
  return index === values.length;
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
