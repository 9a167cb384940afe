export { destination } from './destination.js';
export type * from './types.js';
