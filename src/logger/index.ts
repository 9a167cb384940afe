// The public logger: `logger(format, options)` returns the middleware; `logger.token`,
// `logger.format` and `logger.compile` work on the registries.

import { recordFailure } from '../failures.js';
import { redactDefaults } from './core/redact.js';
import { requestId } from './core/request-id.js';
import { defineToken } from './core/token-registry.js';
import { destination } from './destination/index.js';
import { fetchLogger } from './fetch.js';
import { defineFormat } from './formats.js';
import { jsonFormat } from './json/format.js';
import { jsonPresets } from './json/presets.js';
import { nodeLogger } from './node-exchange.js';
import { compile } from './text/compile.js';
import type {
  FormatFn,
  Logger,
  LoggerMiddleware,
  LogRequest,
  LogResponse,
  TokenFn,
} from './types.js';

/** The Node middleware (node:http, Express, Connect): `logger(format, options)`. */
function logger(format: unknown, options?: unknown): LoggerMiddleware {
  return nodeLogger(format, options);
}

function token<Req, Res>(name: string, fn: TokenFn<Req, Res>): Logger {
  if (typeof name !== 'string') throw new TypeError('argument name must be a string');
  if (typeof fn !== 'function') throw new TypeError('argument fn must be a function');
  defineToken(name, fn);
  return publicLogger;
}

function format<Req, Res>(name: string, fmt: string | FormatFn<Req, Res>): Logger {
  if (typeof name !== 'string') throw new TypeError('argument name must be a string');
  if (typeof fmt !== 'string' && typeof fmt !== 'function') {
    throw new TypeError('argument format must be a string or a function');
  }
  defineFormat(name, fmt as string | FormatFn<LogRequest, LogResponse>);
  return publicLogger;
}

/**
 * Records why a request failed, for its line (`error.type`, `error.message`, `:error-type`):
 * what a body parser of ours rejected is recorded by the parser; an application records its
 * own failures, typically from its error handler. Kept off `req` (see src/failures.ts).
 */
function recordError(req: object, err: unknown): void {
  if (typeof req !== 'object' || req === null) {
    throw new TypeError('argument req must be the request');
  }
  recordFailure(req, err);
}

/** `logger.json`: the JSON format maker, with the predefined field maps as `presets`. */
const json = Object.assign(jsonFormat, { presets: jsonPresets });

/** The request logger (morgan's drop-in successor). */
const publicLogger: Logger = Object.assign(logger, {
  token,
  format,
  compile,
  json,
  requestId,
  recordError,
  redactDefaults,
  fetchLogger,
  destination,
}) as Logger;

export { destination, fetchLogger, publicLogger as logger, recordError, redactDefaults, requestId };
export default publicLogger;
