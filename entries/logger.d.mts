import type { Logger } from '../dist/index.cjs';

export type * from '../dist/index.cjs';
export declare const logger: Logger;
export default logger;
