// The package's root entry: re-exports only.
//
// The error types are listed by name: the bundled declarations turn a class or a function
// re-exported with `export type` into a value, and every value the types declare must exist at
// runtime (test/package checks it). `HttpwareSyntaxError` stays internal for that reason:
// `HttpwareErrorOf<'entity.parse.failed'>` is its public type.

export type {
  AnyHttpwareError,
  ErrorDetails,
  ErrorType,
  HttpwareErrorOf,
  ValidationIssue,
} from './errors.js';
export { errorKinds, HttpwareError, isHttpwareError } from './errors.js';
export type { FastifyLoggerOptions, FastifyParsersOptions } from './fastify/index.js';
export { fastify } from './fastify/index.js';
export { koa } from './koa/index.js';
export type * from './koa/types.js';
export type * from './logger/destination/types.js';
export { fetchLogger, logger, recordError, redactDefaults, requestId } from './logger/index.js';
export type * from './logger/types.js';
export type { Next } from './middleware.js';
export { parsers } from './parsers/index.js';
export { problemHandler, toResponse } from './parsers/problem.js';
export type * from './parsers/types.js';
