// httpware/koa: the logger and the parsers as Koa middleware (Koa 2 and 3). On Koa, `ctx.req`
// and `ctx.res` are Node's own request and response, so each middleware here is the Node
// middleware run over them, behind Koa's `async (ctx, next)` shape: one implementation, one set
// of registries (tokens, formats) shared with httpware/logger, and nothing added to the
// Node middleware's own path.

import type { IncomingMessage } from 'node:http';
import { recordFailure } from '../failures.js';
import { nodeDoorLogger } from '../logger/node-exchange.js';
import { json as nodeJson } from '../parsers/json.js';
import { raw as nodeRaw } from '../parsers/raw.js';
import { text as nodeText } from '../parsers/text.js';
import type { ParserMiddleware } from '../parsers/types.js';
import { urlencoded as nodeUrlencoded } from '../parsers/urlencoded.js';
import { bodyParser } from './body-parser.js';
import { keepClosing } from './closing.js';
import { koaRoute } from './route.js';
import type { Koa, KoaContext, KoaLogger, KoaMiddleware, KoaNext, KoaParser } from './types.js';

const ignore = (): void => {};

/**
 * Koa writes the response once the whole chain has returned (or, for an error, once its
 * `ctx.onerror` has set the status from `err.status`/`err.statusCode`, 500 otherwise), and the
 * Node middleware makes its line when the response closes: so the line has the status Koa
 * sent, whatever it was, and a response the application wrote itself (`ctx.respond = false`)
 * is logged as any other. An error thrown downstream is recorded as the request's failure (the
 * line's `:error-type`, or `error` in the `json` and `ecs` formats), then thrown on to Koa.
 * The route (`:route`, `http.route`) is the one @koa/router or koa-router matched (./route.ts),
 * read from `ctx` when the line is made.
 */
const logger: KoaLogger = (format, options) => {
  const middleware = nodeDoorLogger<KoaContext>(format, options, koaRoute);
  return async function httpwareLogger(ctx: KoaContext, next: KoaNext): Promise<void> {
    middleware(ctx.req, ctx.res, ignore, ctx);
    try {
      await next();
    } catch (err) {
      recordFailure(ctx.req, err);
      throw err;
    }
  };
};

type NodeParser<Options> = (options?: Options) => ParserMiddleware;
type ParsedBody = { body?: unknown; rawBody?: Buffer };
type ParsedRequest = IncomingMessage & ParsedBody;

/**
 * A Node parser as Koa middleware: the body goes to `ctx.request.body` (and `rawBody` with
 * `rawBody: true`), and the parser's error, an HttpwareError with `status`, `statusCode`,
 * `expose` and `type`, is thrown, which Koa's own error handling answers: the status, and the
 * message for a 4xx only. A request that is not the parser's (no body, another type, already
 * read) leaves `ctx.request.body` as it was. The body is also on `ctx.req.body`, where the
 * Node parser puts it (and where another parser of ours finds a body already read).
 */
function koaParser<Options>(parser: NodeParser<Options>): KoaParser<Options> {
  return (options?: Options): KoaMiddleware => {
    // Created here: a bad option throws its TypeError at `app.use`, not per request.
    const middleware = parser(options);
    return async function httpwareBodyParser(ctx: KoaContext, next: KoaNext): Promise<void> {
      // koa-bodyparser's and @koa/bodyparser's switch, which Koa applications set per route:
      // like theirs, any truthy value (a '1' from a config or a header's value) turns it on.
      if (ctx.disableBodyParser) return next().then(ignore);
      const req = ctx.req as ParsedRequest;
      await new Promise<void>((resolve, reject) => {
        middleware(req, ctx.res, (err?: unknown) => {
          if (err === undefined) resolve();
          else reject(keepClosing(err, ctx.res));
        });
      });
      const request = ctx.request as ParsedBody;
      if (req.body !== undefined) request.body = req.body;
      if (req.rawBody !== undefined) request.rawBody = req.rawBody;
      await next();
    };
  };
}

export const koa: Koa = {
  logger,
  json: koaParser(nodeJson as NodeParser<Parameters<Koa['json']>[0]>),
  urlencoded: koaParser(nodeUrlencoded as NodeParser<Parameters<Koa['urlencoded']>[0]>),
  text: koaParser(nodeText as NodeParser<Parameters<Koa['text']>[0]>),
  raw: koaParser(nodeRaw as NodeParser<Parameters<Koa['raw']>[0]>),
  bodyParser,
};
