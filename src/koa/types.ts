// The public types of httpware/koa. Koa's context is typed by what the middleware reads of it,
// not imported from @types/koa: the package's bundled declarations are shared by every entry,
// and a project without Koa must not need Koa's types to compile against them. Koa 2's and 3's
// context (typed by @types/koa) is assignable to KoaContext, so these middleware go to
// `app.use` as they are.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FormatFn, LoggerOptions, PredefinedFormat } from '../logger/types.js';
import type {
  JsonOptions,
  ParserOptions,
  TextOptions,
  UrlencodedOptions,
} from '../parsers/types.js';

/** What httpware's Koa middleware read and write of Koa's context. */
export interface KoaContext {
  /** Node's request (Koa's `ctx.req`): the logger and the parsers work on it. */
  readonly req: IncomingMessage;
  /** Node's response (Koa's `ctx.res`): the line reflects what is finally sent on it. */
  readonly res: ServerResponse;
  /**
   * Koa's request: a parser sets `body`, and `rawBody` when created with `rawBody: true`. Typed
   * `object`: a type of optional properties only would not accept Koa's `Request` in a project
   * that has not loaded httpware/koa's augmentation of it (entries/koa-request.d.ts).
   */
  readonly request: object;
  /** Any truthy value makes the parsers pass over the request (koa-bodyparser's convention). */
  readonly disableBodyParser?: unknown;
}

/** Koa's `next`: the rest of the middleware chain, as a promise. */
export type KoaNext = () => Promise<unknown>;

/** A Koa middleware (`async (ctx, next)`), as Koa 2 and 3 call it. */
export type KoaMiddleware = (ctx: KoaContext, next: KoaNext) => Promise<void>;

/**
 * httpware's logger for Koa: the same formats, tokens and options as `httpware/logger`, one
 * line per request reflecting what Koa finally sent. Tokens, format functions and `skip` are
 * handed Node's request and response (`ctx.req`, `ctx.res`).
 */
export type KoaLogger = (
  format: PredefinedFormat | (string & {}) | FormatFn<IncomingMessage, ServerResponse>,
  options?: LoggerOptions<IncomingMessage, ServerResponse> | null,
) => KoaMiddleware;

/** A body parser for Koa: sets `ctx.request.body` (and `ctx.request.rawBody` on request). */
export type KoaParser<Options> = (options?: Options) => KoaMiddleware;

/** What `httpware/koa` exports. */
export interface Koa {
  readonly logger: KoaLogger;
  readonly json: KoaParser<JsonOptions>;
  readonly urlencoded: KoaParser<UrlencodedOptions>;
  readonly text: KoaParser<TextOptions>;
  readonly raw: KoaParser<ParserOptions>;
}
