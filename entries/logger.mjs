import httpware from '../dist/index.cjs';

export const logger = httpware.logger;
export default logger;
