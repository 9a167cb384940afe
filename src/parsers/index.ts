// httpware/parsers: the drop-in for body-parser's json, raw, text and urlencoded.

import { json } from './json.js';
import { problemHandler, toResponse } from './problem.js';
import { raw } from './raw.js';
import { text } from './text.js';
import type { Parsers } from './types.js';
import { urlencoded } from './urlencoded.js';

/**
 * `require('httpware/parsers')` is this value, shaped as `require('body-parser')` is: a function
 * carrying the four factories. Calling it throws the message body-parser 2 gives code that still
 * calls the old generic `bodyParser()`, so a migration fails loudly and clearly.
 */
function splitGeneric(): never {
  throw new Error(
    'The bodyParser() generic has been split into individual middleware to use instead.',
  );
}

export const parsers: Parsers = Object.assign(splitGeneric, {
  json,
  raw,
  text,
  urlencoded,
  toResponse,
  problemHandler,
});
