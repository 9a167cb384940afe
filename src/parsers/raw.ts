// parsers.raw: the body as a Buffer.

import { resolveOptions } from './options.js';
import { createReader } from './read-body.js';
import type { ParserMiddleware, RawOptions } from './types.js';

const asIs = (body: string | Buffer): Buffer => body as Buffer;

export function raw(options?: RawOptions): ParserMiddleware {
  return createReader(resolveOptions(options, 'application/octet-stream'), {
    charsets: null,
    parse: asIs,
  });
}
