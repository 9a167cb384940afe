// parsers.text: the body as a string, in any charset the charset library knows.

import { anyCharset } from './charset.js';
import { definePipeline } from './define.js';
import { resolveOptions } from './options.js';
import type { Pipeline } from './pipeline.js';
import type { TextOptions, TextParser } from './types.js';

const asIs = (body: string | Buffer): string => body as string;

const TEXT_TYPE = 'text/plain';

export function textPipeline(options?: TextOptions): Pipeline {
  return {
    options: resolveOptions(options, TEXT_TYPE),
    format: { charsets: anyCharset, parse: asIs },
  };
}

export const text: TextParser = definePipeline<TextParser>('text', textPipeline);
