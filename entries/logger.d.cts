import type { Logger } from '../dist/index.cjs';

declare const logger: Logger;
export = logger;
