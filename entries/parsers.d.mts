import type { Parsers } from '../dist/index.cjs';

export type * from '../dist/index.cjs';
export declare const parsers: Parsers;
export declare const json: Parsers['json'];
export declare const raw: Parsers['raw'];
export declare const text: Parsers['text'];
export declare const urlencoded: Parsers['urlencoded'];
export default parsers;
