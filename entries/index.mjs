import httpware from '../dist/index.cjs';

export const { logger, parsers, requestId, HttpwareError, isHttpwareError, errorKinds } = httpware;
