// parsers.raw: the body as a Buffer.

import { resolveOptions } from './options.js';
import { definePipeline, type Pipeline } from './read-body.js';
import type { RawOptions, RawParser } from './types.js';

const asIs = (body: string | Buffer): Buffer => body as Buffer;

export function rawPipeline(options?: RawOptions): Pipeline {
  return {
    options: resolveOptions(options, 'application/octet-stream'),
    format: { charsets: null, parse: asIs },
  };
}

export const raw: RawParser = definePipeline<RawParser>('raw', rawPipeline);
