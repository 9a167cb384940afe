// httpware/fastify: the logger and the parsers as Fastify 5 plugins. Both are the Node door
// itself run over Fastify's `request.raw` and `reply.raw`, so a line or a body is exactly what
// the Node middleware gives, and nothing is added to that middleware's path.
//
// Declared structurally here (no import of fastify): the bundle's types are the root entry's
// too, which applications without Fastify compile against. entries/fastify.d.*ts give the
// public entry Fastify's own plugin types.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { type ErrorType, HttpwareSyntaxError, isHttpwareError } from '../errors.js';
import { recordFailure } from '../failures.js';
import { nodeDoorLogger } from '../logger/node-exchange.js';
import type { FormatFn, LoggerOptions, PredefinedFormat } from '../logger/types.js';
import { jsonPipeline } from '../parsers/json.js';
import { parseContentType } from '../parsers/media-type.js';
import type { ResolvedOptions } from '../parsers/options.js';
import type { Pipeline } from '../parsers/pipeline.js';
import { rawPipeline } from '../parsers/raw.js';
import { readBody } from '../parsers/read-body.js';
import { textPipeline } from '../parsers/text.js';
import type {
  JsonReadOptions,
  RawReadOptions,
  TextReadOptions,
  UrlencodedReadOptions,
} from '../parsers/types.js';
import { urlencodedPipeline } from '../parsers/urlencoded.js';

/** What the plugins use of a Fastify request. */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly id: unknown;
  /**
   * The route's options; `bodyLimit` is the route's, or the server's; `url` the route's path as
   * declared, with its plugins' prefixes (undefined for the 404 handler: no route matched).
   */
  readonly routeOptions?:
    | { readonly bodyLimit?: number | undefined; readonly url?: string | undefined }
    | undefined;
}

/** What the plugins use of a Fastify reply. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
}

/** What the plugins use of a Fastify instance. */
export interface FastifyInstanceLike {
  addHook(
    name: 'onRequest',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, done: () => void) => void,
  ): unknown;
  addHook(
    name: 'onError',
    hook: (
      request: FastifyRequestLike,
      reply: FastifyReplyLike,
      error: Error,
      done: () => void,
    ) => void,
  ): unknown;
  addHook(name: 'onReady', hook: (done: (err?: Error) => void) => void): unknown;
  decorate(name: symbol, value: unknown): unknown;
  hasDecorator(name: symbol): boolean;
  addContentTypeParser(
    type: string,
    parser: (request: FastifyRequestLike, payload: unknown) => Promise<unknown>,
  ): unknown;
  hasContentTypeParser(type: string): boolean;
  removeContentTypeParser(type: string | string[]): unknown;
}

export interface FastifyLoggerOptions extends LoggerOptions {
  /** A predefined or registered format name, a format string or a format function. Default `combined`. */
  format?: PredefinedFormat | (string & {}) | FormatFn | undefined;
  /**
   * Log Fastify's `request.id` (its `genReqId`, or the `requestIdHeader` it trusts) as the
   * request id (`:request-id`, `http.request.id` in JSON): it is copied to `request.raw.id`.
   * Default false.
   */
  requestId?: boolean | undefined;
}

/** What the json parser takes under Fastify besides its own options. */
export interface FastifyJsonOptions {
  /**
   * An empty JSON body: `'error'` (default), a 400 as Fastify's own parser answers
   * (`FST_ERR_CTP_EMPTY_JSON_BODY`); `'object'`, `{}` as body-parser reads it.
   */
  emptyBody?: 'error' | 'object' | undefined;
}

export interface FastifyParsersOptions {
  /**
   * httpware's JSON parser (default on): its options, `true`, or `false` for none (Fastify's
   * own JSON parser stays). Under Fastify `strict` defaults to false, and `emptyBody` says what
   * an empty body is.
   */
  json?: (JsonReadOptions & FastifyJsonOptions) | boolean | undefined;
  /** httpware's urlencoded parser (default on). */
  urlencoded?: UrlencodedReadOptions | boolean | undefined;
  /** httpware's text parser (default on; `false`: Fastify's own text/plain parser stays). */
  text?: TextReadOptions | boolean | undefined;
  /** httpware's raw parser, `application/octet-stream` by default (default off). */
  raw?: RawReadOptions | boolean | undefined;
}

export type FastifyPlugin<Options> = (
  instance: FastifyInstanceLike,
  options: Options,
  done: (err?: Error) => void,
) => void;

/**
 * fastify-plugin's convention, without the dependency: a plugin marked `skip-override` runs in
 * the context it is registered in instead of a new child one, so its hooks and parsers serve
 * that context's routes (the whole application at the root, only a child's routes in a child).
 * Unmarked, they would serve an empty context of their own.
 */
function asFastifyPlugin<Options>(
  name: string,
  plugin: (instance: FastifyInstanceLike, options: Options, done: (err?: Error) => void) => void,
): FastifyPlugin<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
    [Symbol.for('plugin-meta')]: { name, fastify: '5.x' },
  });
}

/** Fastify's own register options, which it hands to the plugin with the plugin's. */
const REGISTER_OPTIONS = new Set(['prefix', 'logLevel', 'logSerializers']);

function loggerOptionsOf(options: Record<string, unknown>): LoggerOptions {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    if (key !== 'format' && key !== 'requestId' && !REGISTER_OPTIONS.has(key)) {
      rest[key] = options[key];
    }
  }
  return rest as LoggerOptions;
}

/**
 * Marks a context that has the logger plugin. A decorator, because Fastify's decorators are
 * what a child context inherits from its parents and `hasDecorator` looks up.
 */
const LOGGER_REGISTERED = Symbol.for('httpware.fastify.logger');

const TWICE =
  'httpwareLogger is already registered in this context or a parent: each request would be logged twice';

/**
 * Whether a parent of `instance` has the plugin. A child context is made with
 * `Object.create(parent)` (Fastify's encapsulation), so the parent's decorators are on its
 * prototype, including one decorated after the child was made: a parent that registers the
 * plugin after a child did still runs its hooks for the child's routes.
 */
function parentHasLogger(instance: FastifyInstanceLike): boolean {
  const parent: unknown = Object.getPrototypeOf(instance);
  return typeof parent === 'object' && parent !== null && LOGGER_REGISTERED in parent;
}

/**
 * The route Fastify matched (`:route`, `http.route`): the route's `url` as declared, prefixes
 * included (`/api/users/:id`). Fastify routes before the first hook, so it is known from
 * `onRequest` on; the 404 handler's requests matched no route and have none.
 */
function fastifyRoute(request: FastifyRequestLike): string | undefined {
  const url = request.routeOptions?.url;
  return typeof url === 'string' ? url : undefined;
}

/**
 * The logger plugin: one line per request, written by the Node logger from an `onRequest`
 * hook over `request.raw` and `reply.raw`, so it times the request from Fastify's first hook
 * and sees the response Fastify writes, errors and 404s included. An `onError` hook records
 * the error Fastify answers (a route's throw, a hook's, a parser's) as the request's failure,
 * for `error.type` and `error.message` (as httpware/koa does with a throw). Options are
 * resolved at registration: a bad one fails `register` (and `ready`) with its TypeError. A
 * registration where the plugin already serves (the same context or a parent) fails too, at
 * `register`, or at `ready` when the parent's came after the child's: both would log every
 * request of the child, two lines each.
 */
export const httpwareLogger = asFastifyPlugin<FastifyLoggerOptions>(
  'httpware-logger',
  (instance, options, done) => {
    const given = (options ?? {}) as Record<string, unknown>;
    let middleware: ReturnType<typeof nodeDoorLogger<FastifyRequestLike>>;
    try {
      if (instance.hasDecorator(LOGGER_REGISTERED)) throw new Error(TWICE);
      if (given.requestId !== undefined && typeof given.requestId !== 'boolean') {
        throw new TypeError('option requestId must be a boolean');
      }
      middleware = nodeDoorLogger(
        (given.format ?? 'combined') as PredefinedFormat,
        loggerOptionsOf(given),
        fastifyRoute,
      );
    } catch (err) {
      done(err as Error);
      return;
    }
    if (given.requestId === true) {
      instance.addHook('onRequest', (request, reply, next) => {
        (request.raw as IncomingMessage & { id?: unknown }).id = request.id;
        middleware(request.raw, reply.raw, next, request);
      });
    } else {
      instance.addHook('onRequest', (request, reply, next) =>
        middleware(request.raw, reply.raw, next, request),
      );
    }
    instance.addHook('onError', (request, _reply, error, next) => {
      recordFailure(request.raw, error);
      next();
    });
    instance.decorate(LOGGER_REGISTERED, true);
    // A parent that registers it later is seen once every plugin is loaded.
    instance.addHook('onReady', (ready) =>
      ready(parentHasLogger(instance) ? new Error(TWICE) : undefined),
    );
    done();
  },
);

/** A content-type parser as Fastify calls one that reads the stream itself. */
type ContentTypeParser = (request: FastifyRequestLike, payload: unknown) => Promise<unknown>;

interface Choice {
  readonly name: ParserName;
  readonly pipeline: Pipeline;
  /** Whether its options set `limit`; if not, Fastify's `bodyLimit` is the limit. */
  readonly ownLimit: boolean;
  /**
   * Whether this parser takes the request, given its media type (its `type` option, as the
   * middleware reads it).
   */
  readonly takes: (mediaType: string | null, req: IncomingMessage) => boolean;
  /** Whether it may take a body of this media type, known at registration (a function: yes). */
  readonly mayTake: (mediaType: string) => boolean;
  /** The media types it takes, when its `type` lists them one by one (no wildcard, no function). */
  readonly exactTypes: readonly string[] | null;
  /** Its resolved options with another limit, made once per limit (one per distinct bodyLimit). */
  readonly limited: Map<number, ResolvedOptions>;
}

/** The parsers Fastify has built in, which give way to ours in this context (see httpwareParsers). */
const FASTIFY_PARSERS = ['application/json', 'text/plain'];

// RFC 9110 sec 8.3.1: media-type = type "/" subtype, each a token; no wildcard, no `+json`
// suffix pattern, no type-is shorthand (`json`): one media type Fastify can look up as it is.
const EXACT_MEDIA_TYPE = /^[\w!#$&^.-]+\/[\w!#$&^.+-]+$/;

/** The media types a `type` option lists, if each is one exact media type (else null). */
function exactTypesOf(type: unknown): readonly string[] | null {
  if (typeof type === 'function') return null;
  const list: unknown[] = Array.isArray(type) ? type : [type];
  if (list.length === 0) return null;
  const types: string[] = [];
  for (const entry of list) {
    if (typeof entry !== 'string' || !EXACT_MEDIA_TYPE.test(entry)) return null;
    types.push(entry.toLowerCase());
  }
  return types;
}

const PIPELINES = {
  json: jsonPipeline,
  urlencoded: urlencodedPipeline,
  text: textPipeline,
  raw: rawPipeline,
} as const;
type ParserName = keyof typeof PIPELINES;

/** The parsers chosen by the options, checked now: a bad option fails `register`. */
function choicesOf(options: FastifyParsersOptions): Choice[] {
  const choices: Choice[] = [];
  for (const name of Object.keys(PIPELINES) as ParserName[]) {
    const given = options[name] ?? name !== 'raw';
    if (given === false) continue;
    const parserOptions = given === true ? {} : given;
    if (typeof parserOptions !== 'object' || parserOptions === null) {
      throw new TypeError(`option ${name} must be a boolean or the ${name} parser's options`);
    }
    // Resolving the options once here: a bad one throws now, not per request.
    const pipeline =
      name === 'json'
        ? fastifyJson(parserOptions as JsonReadOptions & FastifyJsonOptions)
        : (PIPELINES[name] as (options?: object) => Pipeline)(parserOptions);
    const { typeFunction, matchesType } = pipeline.options;
    choices.push({
      name,
      pipeline,
      ownLimit: (parserOptions as { limit?: unknown }).limit != null,
      takes:
        typeFunction === null
          ? matchesType
          : (_: string | null, req: IncomingMessage) => Boolean(typeFunction(req)),
      mayTake: typeFunction === null ? matchesType : () => true,
      exactTypes: exactTypesOf(pipeline.options.type),
      limited: new Map(),
    });
  }
  return choices;
}

/**
 * The json parser as a Fastify user expects it: any JSON value at the top level, as Fastify's
 * own parser takes (`strict: false`, unless the options say), and an empty body refused
 * (`emptyBody`).
 */
function fastifyJson(options: JsonReadOptions & FastifyJsonOptions): Pipeline {
  const { emptyBody = 'error', ...json } = options;
  if (emptyBody !== 'error' && emptyBody !== 'object') {
    throw new TypeError("option emptyBody must be 'error' or 'object'");
  }
  const pipeline = jsonPipeline({ strict: false, ...json });
  if (emptyBody === 'object') return pipeline;
  const { charsets, parse } = pipeline.format;
  return {
    ...pipeline,
    format: {
      charsets,
      parse: (body, charset) => {
        if (body.length === 0) throw withCode(emptyJson(), 'FST_ERR_CTP_EMPTY_JSON_BODY');
        return parse(body, charset);
      },
    },
  };
}

function emptyJson(): HttpwareSyntaxError {
  return new HttpwareSyntaxError('empty JSON body', '');
}

/**
 * The options a body is read with under a route whose Fastify `bodyLimit` (the route's, or the
 * server's) is `bodyLimit`: that is the limit, unless the parser's own `limit` is lower.
 */
function optionsFor(choice: Choice, bodyLimit: unknown): ResolvedOptions {
  const options = choice.pipeline.options;
  if (typeof bodyLimit !== 'number') return options;
  const limit = choice.ownLimit ? Math.min(options.limit, bodyLimit) : bodyLimit;
  if (limit === options.limit) return options;
  let limited = choice.limited.get(limit);
  if (limited === undefined) {
    limited = { ...options, limit };
    choice.limited.set(limit, limited);
  }
  return limited;
}

/**
 * Fastify's codes (`FST_ERR_CTP_*`, what Fastify's own parsers answer the same body with) for
 * our kinds that have one; the others keep their `type` as their code.
 */
const FASTIFY_CODES: Partial<Record<ErrorType, string>> = {
  'entity.too.large': 'FST_ERR_CTP_BODY_TOO_LARGE',
  'media.type.unsupported': 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'request.size.invalid': 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
};
/** The json parser's: Fastify answers a prototype key as any body its parser refuses. */
const FASTIFY_JSON_CODES: Partial<Record<ErrorType, string>> = {
  ...FASTIFY_CODES,
  'entity.parse.failed': 'FST_ERR_CTP_INVALID_JSON_BODY',
  'entity.prototype.forbidden': 'FST_ERR_CTP_INVALID_JSON_BODY',
};

/**
 * Fastify answers an error with its `statusCode` and names it by its `code`. Ours get Fastify's
 * code where Fastify has one for the same refusal, else their `type`; one that has a code
 * already (`ECONNABORTED`) keeps it. `type`, `status`, `statusCode` and `expose` stay.
 */
function withCode<E>(err: E, code: string | undefined): E {
  if (isHttpwareError(err) && (err as { code?: unknown }).code === undefined) {
    Object.defineProperty(err, 'code', {
      value: code ?? err.type,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return err;
}

/**
 * A JSON parse error's message is the engine's, which quotes the body (`Unexpected token 'h',
 * "hunter2" is not valid JSON`), and it keeps the body's text. Fastify answers the client with
 * the message and its request logging writes the message and the stack: under Fastify the
 * error is made anew, its message fixed and its `body` empty, so no body text leaves in either.
 */
function withoutBodyText(err: unknown): unknown {
  if (!isHttpwareError(err) || err.type !== 'entity.parse.failed' || err.body === '') return err;
  return new HttpwareSyntaxError(INVALID_JSON_MESSAGE, '');
}

const INVALID_JSON_MESSAGE = 'the body is not valid JSON, though its Content-Type names JSON';

function codeOf(err: unknown, parser: ParserName): string | undefined {
  if (!isHttpwareError(err)) return undefined;
  return (parser === 'json' ? FASTIFY_JSON_CODES : FASTIFY_CODES)[err.type];
}

/**
 * Registers `parser` for one media type, unless the application registered a parser of its own
 * for it (FST_ERR_CTP_ALREADY_PRESENT; Fastify's own default for the type is replaced).
 */
function addUnlessTaken(
  instance: FastifyInstanceLike,
  type: string,
  parser: ContentTypeParser,
): boolean {
  try {
    instance.addContentTypeParser(type, parser);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'FST_ERR_CTP_ALREADY_PRESENT') return false;
    throw err;
  }
  return true;
}

/**
 * Gives Fastify's own parser for `type` (application/json, text/plain) over to `parser`, unless
 * the application registered its own for it. Fastify tells the two apart only in
 * `addContentTypeParser`: over its own default parser the call replaces it, over one the
 * application added it throws FST_ERR_CTP_ALREADY_PRESENT (`hasContentTypeParser` is true for
 * both). Ours, added so, is removed again: the type then goes to the catch-all like any other,
 * and the application may still add a parser of its own for it after this plugin.
 */
function replaceFastifyDefault(
  instance: FastifyInstanceLike,
  type: string,
  parser: ContentTypeParser,
): void {
  if (addUnlessTaken(instance, type, parser)) instance.removeContentTypeParser(type);
}

const CATCH_ALL_TAKEN =
  "httpwareParsers: this context already has a catch-all content-type parser ('*') of the application's, and a parser's `type` here is not a list of exact media types (a wildcard, a function) that the plugin could register beside it; give `type` as media types, register the plugin in another context, or remove yours";

/**
 * Beside a catch-all parser of the application's: ours for each media type our parsers list,
 * but those the application has a parser of its own for, and the catch-all stays the
 * application's (every other type, and a body without a Content-Type, goes to it).
 */
function registerBesideCatchAll(
  instance: FastifyInstanceLike,
  choices: readonly Choice[],
  parser: ContentTypeParser,
): void {
  const types = new Set<string>();
  for (const choice of choices) {
    if (choice.exactTypes === null) throw new Error(CATCH_ALL_TAKEN);
    for (const type of choice.exactTypes) types.add(type);
  }
  for (const type of types) addUnlessTaken(instance, type, parser);
}

/**
 * Whether the context has a catch-all parser (`'*'`) already. A second one replaces the first
 * without a word (`addContentTypeParser('*')` never throws FST_ERR_CTP_ALREADY_PRESENT), and
 * Fastify has no public way to ask (`hasContentTypeParser('*')` is false even then), so this
 * reads its content-type parsers where Fastify keeps them: under the symbol it describes as
 * `fastify.contentTypeParser`, a Map in which the catch-all is the '' entry. A Fastify that keeps
 * them otherwise answers false, and the plugin registers as before.
 */
function hasCatchAll(instance: FastifyInstanceLike): boolean {
  for (let o: object | null = instance; o !== null; o = Object.getPrototypeOf(o)) {
    const symbol = Object.getOwnPropertySymbols(o).find(
      (candidate) => candidate.description === 'fastify.contentTypeParser',
    );
    if (symbol === undefined) continue;
    const parsers = (instance as unknown as Record<symbol, { customParsers?: unknown }>)[symbol];
    return parsers?.customParsers instanceof Map && parsers.customParsers.has('');
  }
  return false;
}

/**
 * The parsers plugin: httpware's json, urlencoded and text (and raw, when asked) through one
 * catch-all content-type parser (`'*'`) that hands each body to the first parser whose `type`
 * matches it (a Content-Type none matches is a 415 from the first, once its body is drained).
 * Fastify's own json and text parsers give way where one of ours takes their type (a parser
 * the application registered never does, nor a type none of ours takes: with `json: false`,
 * Fastify's JSON parser stays). Beside a catch-all of the application's, the same parser is
 * registered for each media type ours list instead (registerBesideCatchAll).
 * Each body is read by the same pipeline as the Node middleware:
 * off `request.raw`, or off the stream a `preParsing` hook put in its place (what Fastify hands
 * a content-type parser). The limit is Fastify's `bodyLimit` for the route, or the parser's
 * `limit` where that is lower; errors are HttpwareErrors with `statusCode`, and a `code` that
 * is Fastify's `FST_ERR_CTP_*` where Fastify has one (codeOf).
 */
export const httpwareParsers = asFastifyPlugin<FastifyParsersOptions>(
  'httpware-parsers',
  (instance, options, done) => {
    let choices: Choice[];
    try {
      choices = choicesOf(options ?? {});
    } catch (err) {
      done(err as Error);
      return;
    }
    // With no parser of ours, Fastify's own answer every type it has and refuse the others.
    if (choices.length === 0) {
      done();
      return;
    }
    const parser: ContentTypeParser = async (request, payload) => {
      const req = request.raw;
      const mediaType = parseContentType(req.headers['content-type']).type;
      // None taking it, the first refuses it (415) once its rest is drained, as `read` does.
      const choice = (choices.find((candidate) => candidate.takes(mediaType, req)) ??
        choices[0]) as Choice;
      const stream = payload === req || payload == null ? null : (payload as Readable);
      try {
        return await readBody(
          req,
          null,
          optionsFor(choice, request.routeOptions?.bodyLimit),
          choice.pipeline.format,
          stream,
        );
      } catch (err) {
        throw withCode(withoutBodyText(err), codeOf(err, choice.name));
      }
    };
    try {
      if (hasCatchAll(instance)) registerBesideCatchAll(instance, choices, parser);
      else {
        for (const type of FASTIFY_PARSERS) {
          if (choices.some((choice) => choice.mayTake(type))) {
            replaceFastifyDefault(instance, type, parser);
          }
        }
        instance.addContentTypeParser('*', parser);
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  },
);

/** `require('httpware/fastify')`: both plugins, from the one bundle (one token and format registry). */
export const fastify = { httpwareLogger, httpwareParsers };
