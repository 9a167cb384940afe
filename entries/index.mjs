import httpware from '../dist/index.cjs';

export const { logger, parsers, HttpwareError, isHttpwareError, errorKinds } = httpware;
