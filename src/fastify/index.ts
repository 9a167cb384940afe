// httpware/fastify: the logger and the parsers as Fastify 5 plugins. Both are the Node door
// itself run over Fastify's `request.raw` and `reply.raw`, so a line or a body is exactly what
// the Node middleware gives, and nothing is added to that middleware's path.
//
// Declared structurally here (no import of fastify): the bundle's types are the root entry's
// too, which applications without Fastify compile against. entries/fastify.d.*ts give the
// public entry Fastify's own plugin types.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError, isHttpwareError } from '../errors.js';
import { recordFailure } from '../failures.js';
import { logger } from '../logger/index.js';
import type { FormatFn, LoggerOptions, PredefinedFormat } from '../logger/types.js';
import { json } from '../parsers/json.js';
import { compileTypeMatcher, parseContentType } from '../parsers/media-type.js';
import { raw } from '../parsers/raw.js';
import { text } from '../parsers/text.js';
import type {
  JsonReadOptions,
  RawReadOptions,
  TextReadOptions,
  UrlencodedReadOptions,
} from '../parsers/types.js';
import { urlencoded } from '../parsers/urlencoded.js';

/** What the plugins use of a Fastify request. */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly id: unknown;
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

export interface FastifyParsersOptions {
  /** httpware's JSON parser (default on): its options, `true`, or `false` for none. */
  json?: JsonReadOptions | boolean | undefined;
  /** httpware's urlencoded parser (default on). */
  urlencoded?: UrlencodedReadOptions | boolean | undefined;
  /** httpware's text parser (default on). */
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
    let middleware: ReturnType<typeof logger>;
    try {
      if (instance.hasDecorator(LOGGER_REGISTERED)) throw new Error(TWICE);
      if (given.requestId !== undefined && typeof given.requestId !== 'boolean') {
        throw new TypeError('option requestId must be a boolean');
      }
      middleware = logger((given.format ?? 'combined') as PredefinedFormat, loggerOptionsOf(given));
    } catch (err) {
      done(err as Error);
      return;
    }
    if (given.requestId === true) {
      instance.addHook('onRequest', (request, reply, next) => {
        (request.raw as IncomingMessage & { id?: unknown }).id = request.id;
        middleware(request.raw, reply.raw, next);
      });
    } else {
      instance.addHook('onRequest', (request, reply, next) =>
        middleware(request.raw, reply.raw, next),
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

type Reader = (req: IncomingMessage, options?: object) => Promise<unknown>;

interface Choice {
  readonly read: Reader;
  readonly options: object | undefined;
  /**
   * Whether this parser takes the request, given its media type (its `type` option, as the
   * middleware reads it).
   */
  readonly takes: (mediaType: string | null, req: IncomingMessage) => boolean;
}

const DEFAULT_TYPES = {
  json: 'application/json',
  urlencoded: 'application/x-www-form-urlencoded',
  text: 'text/plain',
  raw: 'application/octet-stream',
} as const;

/** The parsers Fastify has built in, which this plugin replaces in its context. */
const FASTIFY_PARSERS = ['application/json', 'text/plain'];

const PARSERS = { json, urlencoded, text, raw } as const;
type ParserName = keyof typeof PARSERS;

/** The parsers chosen by the options, checked now: a bad option fails `register`. */
function choicesOf(options: FastifyParsersOptions): Choice[] {
  const choices: Choice[] = [];
  for (const name of Object.keys(PARSERS) as ParserName[]) {
    const given = options[name] ?? name !== 'raw';
    if (given === false) continue;
    const parserOptions = given === true ? undefined : given;
    if (
      parserOptions !== undefined &&
      (typeof parserOptions !== 'object' || parserOptions === null)
    ) {
      throw new TypeError(`option ${name} must be a boolean or the ${name} parser's options`);
    }
    // Making the middleware once resolves the options, so a bad one throws here, not per request.
    (PARSERS[name] as (options?: object) => unknown)(parserOptions);
    const type = (parserOptions as { type?: unknown } | undefined)?.type || DEFAULT_TYPES[name];
    const takes =
      typeof type === 'function'
        ? (_: string | null, req: IncomingMessage) =>
            Boolean((type as (req: IncomingMessage) => unknown)(req))
        : compileTypeMatcher(type);
    choices.push({ read: PARSERS[name].read as Reader, options: parserOptions, takes });
  }
  return choices;
}

/**
 * Fastify answers an error with its `statusCode` and names it by its `code` (`FST_ERR_...`);
 * ours get their `type` as that code, unless they carry one (`ECONNABORTED`).
 */
function withCode(err: unknown): unknown {
  if (isHttpwareError(err) && (err as { code?: unknown }).code === undefined) {
    Object.defineProperty(err, 'code', {
      value: err.type,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return err;
}

/**
 * The parsers plugin: httpware's json, urlencoded and text (and raw, when asked) in place of
 * Fastify's own json and text (removed in this context, whichever are on), through one
 * catch-all content-type parser that hands each body to the first parser whose `type` matches
 * it (a Content-Type none matches is a 415). Each reads
 * `request.raw` with its `read`: limits count inflated bytes, every Content-Encoding is
 * decoded, and an error is an HttpwareError whose `statusCode` Fastify's error handler answers
 * with (and whose `code` is its `type`). Fastify's `bodyLimit` does not apply: it counts only
 * what Fastify reads itself; `limit` is the limit.
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
    // Fastify's own two go, so that a type none of ours takes is a 415 whichever parsers are on.
    for (const type of FASTIFY_PARSERS) {
      if (instance.hasContentTypeParser(type)) instance.removeContentTypeParser(type);
    }
    instance.addContentTypeParser('*', async (request) => {
      const req = request.raw;
      const mediaType = parseContentType(req.headers['content-type']).type;
      // None taking it, the first refuses it (415) once its rest is drained, as `read` does.
      const choice = choices.find((candidate) => candidate.takes(mediaType, req)) ?? choices[0];
      if (choice === undefined) {
        throw withCode(createError('media.type.unsupported', { mediaType: mediaType ?? '' }));
      }
      try {
        return await choice.read(req, choice.options);
      } catch (err) {
        throw withCode(err);
      }
    });
    done();
  },
);

/** `require('httpware/fastify')`: both plugins, from the one bundle (one token and format registry). */
export const fastify = { httpwareLogger, httpwareParsers };
