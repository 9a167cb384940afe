import httpware from '../dist/index.cjs';

export const {
  logger,
  fetchLogger,
  parsers,
  requestId,
  recordError,
  redactDefaults,
  HttpwareError,
  isHttpwareError,
  errorKinds,
  fastify,
  toResponse,
  koa,
  problemHandler,
} = httpware;
