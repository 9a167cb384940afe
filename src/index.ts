// The package's root entry: re-exports only.

export type * from './errors.js';
export { errorKinds, HttpwareError, isHttpwareError } from './errors.js';
export { logger, requestId } from './logger/index.js';
export type * from './logger/types.js';
export { parsers } from './parsers/index.js';
export type * from './parsers/types.js';
