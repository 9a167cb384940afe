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
  ProtoPoisoningAction,
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
   * Koa's request: a parser sets `body`, and `rawBody` (`bodyParser` always, the text; another
   * parser when created with `rawBody: true`, the bytes). Typed
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

/** The kinds of body `bodyParser` reads: xml is read as text, as koa-bodyparser reads it. */
export type BodyType = 'json' | 'form' | 'text' | 'xml';

/**
 * Koa's context as `detectJSON` and `onError` are handed it: what httpware/koa knows of it,
 * and any other property of Koa's own (`ctx.path`, `ctx.throw`) left untyped, since the
 * package's declarations do not load Koa's. Annotate the parameter as `Koa.Context` for Koa's
 * full types.
 */
export type BodyParserContext = KoaContext & {
  // biome-ignore lint/suspicious/noExplicitAny: the rest of Koa's context, typed by Koa's own declarations when the caller annotates it
  readonly [property: string]: any;
};

/**
 * The options of `bodyParser`: @koa/bodyparser 6's names and defaults (and koa-bodyparser 4's
 * `strict` and `onerror`), read once when the middleware is made.
 */
export interface BodyParserOptions {
  /** The kinds of body read. Default `['json', 'form']`. */
  enableTypes?: readonly BodyType[] | undefined;
  /** More media types for a kind, added to its defaults (a string or a list). */
  extendTypes?: { readonly [K in BodyType]?: string | readonly string[] | undefined } | undefined;
  /** Largest JSON body: bytes, or a size string. Default `'1mb'`. */
  jsonLimit?: number | string | undefined;
  /** Largest form body. Default `'56kb'`. */
  formLimit?: number | string | undefined;
  /** Largest text body. Default `'1mb'`. */
  textLimit?: number | string | undefined;
  /** Largest xml body. Default `'1mb'`. */
  xmlLimit?: number | string | undefined;
  /** The charset of a body whose Content-Type names none. Default `'utf-8'`. */
  encoding?: string | undefined;
  /** Only an object or an array is JSON's top level (@koa/bodyparser 6's name). Default true. */
  jsonStrict?: boolean | undefined;
  /** koa-bodyparser 4's name for `jsonStrict`. */
  strict?: boolean | undefined;
  /** A prototype key in JSON (`__proto__`, `constructor.prototype`). Default `'error'` (400). */
  onProtoPoisoning?: ProtoPoisoningAction | undefined;
  /** Reads the body as JSON whatever its Content-Type when this returns true. */
  detectJSON?(ctx: BodyParserContext): boolean;
  /** Handles a parser's error instead of throwing it; the chain then goes on. */
  onError?(error: Error, ctx: BodyParserContext): void;
  /** koa-bodyparser 4's name for `onError`. */
  onerror?(error: Error, ctx: BodyParserContext): void;
  /** The methods whose bodies are read. Default `['POST', 'PUT', 'PATCH']`. */
  parsedMethods?: readonly string[] | undefined;
  /** Also sets `ctx.req.rawBody`, and `ctx.req.body` when nothing was read. Default false. */
  patchNode?: boolean | undefined;
  /** Takes a `ctx.req.body` set before as `ctx.request.body`, unread. Default false. */
  enableRawChecking?: boolean | undefined;
  /** How forms are read (qs's names): nested `depth` (5), `parameterLimit` (1000), `allowDots` (true). */
  queryString?:
    | {
        depth?: number | undefined;
        parameterLimit?: number | undefined;
        allowDots?: boolean | undefined;
      }
    | undefined;
}

/** `bodyParser`: one middleware for json, forms, text and xml, as @koa/bodyparser's. */
export type KoaBodyParser = (options?: BodyParserOptions) => KoaMiddleware;

/** What `httpware/koa` exports. */
export interface Koa {
  readonly logger: KoaLogger;
  readonly json: KoaParser<JsonOptions>;
  readonly urlencoded: KoaParser<UrlencodedOptions>;
  readonly text: KoaParser<TextOptions>;
  readonly raw: KoaParser<ParserOptions>;
  readonly bodyParser: KoaBodyParser;
}
