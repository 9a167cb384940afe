// Charsets: which ones each parser accepts, and turning the body's bytes into text.

import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';
import { ON_DENO } from '../runtime.js';
import type { TextStream } from './gather.js';

/** Whether a parser accepts a charset (already lower-cased); null: the parser reads bytes. */
export type CharsetPolicy = ((charset: string) => boolean) | null;

// RFC 8259 sec 8.1 says JSON is UTF-8; RFC 7159 allowed UTF-16 and UTF-32 too. Only those are
// accepted: `utf-7` in particular is refused, since it turns `+ADw-script+AD4-` into
// `<script>` after any filter that only looked at the raw bytes.
const UNICODE = new Set([
  'utf-8',
  'utf-16',
  'utf-16le',
  'utf-16be',
  'utf-32',
  'utf-32le',
  'utf-32be',
]);

export const unicodeOnly: CharsetPolicy = (charset) => UNICODE.has(charset);

// A form's charset is only ever what a browser sends: UTF-8, or Latin-1 from old pages.
export const formCharsets: CharsetPolicy = (charset) =>
  charset === 'utf-8' || charset === 'iso-8859-1';

/**
 * No restriction of the parser's own (text, as body-parser's has none): whether the charset can be
 * decoded at all is the pipeline's check, which reports an unknown one lower-cased.
 */
export const anyCharset: CharsetPolicy = () => true;

/** Whether the charset library can decode this charset at all. */
export function charsetExists(charset: string): boolean {
  return charset === 'utf-8' || iconv.encodingExists(charset);
}

const BOM = 0xfeff;

/** Drops a leading byte-order mark, as iconv-lite's decoding does. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/**
 * UTF-8 bytes as text, a leading BOM kept (stripBom drops one, as on Node). Deno's `Buffer` is
 * a polyfill whose `toString` takes two to three times its native TextDecoder's time (a 1 MB
 * body: 470 µs against 155; 10 KB: 4.2 against 1.0); Node's and Bun's `toString` are their
 * fastest. Both give U+FFFD for bytes that are not UTF-8, as the Encoding Standard says.
 */
const utf8 = ((): ((bytes: Buffer) => string) => {
  if (!ON_DENO) return (bytes) => bytes.toString('utf8');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (bytes) => decoder.decode(bytes);
})();

/** Decodes a whole body, dropping a leading byte-order mark as iconv-lite does. */
export function decode(body: Buffer, charset: string): string {
  // Fast path: the runtime's own decoder, the same replacement-character behaviour as iconv-lite's.
  if (charset === 'utf-8') return stripBom(utf8(body));
  return iconv.decode(body, charset);
}

/**
 * A decoder for a body that comes in pieces, giving the text `decode` gives the whole body
 * (a character split between pieces is carried over). Not the runtime's TextDecoder: its
 * labels are the WHATWG Encoding Standard's, where `iso-8859-1` means windows-1252, `utf-16`
 * is always little-endian and a lone surrogate becomes U+FFFD; iconv-lite's decoder keeps
 * body-parser's answers. Its BOM is dropped by iconv-lite, as `decode` does; a UTF-8 one by
 * the caller (stripBom).
 */
export function streamDecoder(charset: string): TextStream {
  return charset === 'utf-8' ? new StringDecoder('utf8') : iconv.getDecoder(charset);
}
