// parsers.text: the body as a string, in any charset the charset library knows.

import { anyCharset } from './charset.js';
import { resolveOptions } from './options.js';
import { definePipeline, type Pipeline } from './read-body.js';
import type { TextOptions, TextParser } from './types.js';

const asIs = (body: string | Buffer): string => body as string;

export function textPipeline(options?: TextOptions): Pipeline {
  return {
    options: resolveOptions(options, 'text/plain'),
    format: { charsets: anyCharset, parse: asIs },
  };
}

export const text: TextParser = definePipeline<TextParser>('text', textPipeline);
