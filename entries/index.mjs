import httpware from '../dist/index.cjs';

export const {
  logger,
  parsers,
  requestId,
  recordError,
  redactDefaults,
  HttpwareError,
  isHttpwareError,
  errorKinds,
  toResponse,
  problemHandler,
} = httpware;
