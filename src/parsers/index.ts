// httpware/parsers: the drop-in for body-parser's json, raw, text and urlencoded.

import { json } from './json.js';
import { raw } from './raw.js';
import { text } from './text.js';
import type { Parsers } from './types.js';
import { urlencoded } from './urlencoded.js';

export const parsers: Parsers = { json, raw, text, urlencoded };
