// parsers.text: the body as a string, in any charset the charset library knows.

import { anyCharset } from './charset.js';
import { resolveOptions } from './options.js';
import { createReader } from './read-body.js';
import type { ParserMiddleware, TextOptions } from './types.js';

const asIs = (body: string | Buffer): string => body as string;

export function text(options?: TextOptions): ParserMiddleware {
  return createReader(resolveOptions(options, 'text/plain'), {
    charsets: anyCharset,
    parse: asIs,
  });
}
