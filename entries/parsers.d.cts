import type { Parsers } from '../dist/index.cjs';

declare const parsers: Parsers;
export = parsers;
