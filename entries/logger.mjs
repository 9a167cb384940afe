import httpware from '../dist/index.cjs';

export const logger = httpware.logger;
// Named as `import { token } from 'morgan'` finds them in ESM (Node exposes morgan's
// `module.exports.token` and the like as named exports).
export const { compile, format, token } = logger;
export default logger;
