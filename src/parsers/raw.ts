// parsers.raw: the body as a Buffer.

import { definePipeline } from './define.js';
import { resolveOptions } from './options.js';
import type { Pipeline } from './pipeline.js';
import type { RawOptions, RawParser } from './types.js';

const asIs = (body: string | Buffer): Buffer => body as Buffer;

const RAW_TYPE = 'application/octet-stream';

export function rawPipeline(options?: RawOptions): Pipeline {
  return {
    options: resolveOptions(options, RAW_TYPE),
    format: { charsets: null, parse: asIs },
  };
}

export const raw: RawParser = definePipeline<RawParser>('raw', rawPipeline);
