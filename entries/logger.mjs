import httpware from '../dist/index.cjs';

export const logger = httpware.logger;
// Named as `import { token } from 'morgan'` finds them in ESM (Node exposes morgan's
// `module.exports.token` and the like as named exports); and the logger's own additions that
// are called without the logger at hand.
export const { compile, format, token, recordError, redactDefaults, fetchLogger, destination } =
  logger;
export default logger;
