// Content-Encoding -> a decompression stream from Node's own zlib.

import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

// zstd arrived in zlib with Node 22.15; detect the function rather than parse a version.
const createZstdDecompress = (zlib as unknown as { createZstdDecompress?: () => Transform })
  .createZstdDecompress;

/** Whether this Node can decompress `Content-Encoding: zstd`. */
export const hasZstd = typeof createZstdDecompress === 'function';

/**
 * A decompressor for one content coding (RFC 9110 sec 8.4.1), or null when it is not supported.
 * `deflate` is the zlib format (RFC 1950), as RFC 9110 defines it and body-parser reads it.
 */
export function createDecompressor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return createZstdDecompress ? createZstdDecompress() : null;
    default:
      return null;
  }
}
