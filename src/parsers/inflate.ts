// Content-Encoding -> Node's own zlib, as a stream or, for a small body, in one synchronous call.

import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

type SyncInflate = (body: Buffer, options: { maxOutputLength: number }) => Buffer;

// zstd arrived in zlib with Node 22.15; detect the functions rather than parse a version.
const zstd = zlib as unknown as {
  createZstdDecompress?: () => Transform;
  zstdDecompressSync?: SyncInflate;
};

/** Whether this Node can decompress `Content-Encoding: zstd`. */
export const hasZstd = typeof zstd.createZstdDecompress === 'function';

/** One content coding's two ways of decompressing: streaming, and a whole buffer at once. */
export interface Coding {
  readonly stream: () => Transform;
  /** Throws a RangeError once the output would pass `maxOutputLength`. */
  readonly sync: SyncInflate;
}

// RFC 9110 sec 8.4.1. `deflate` is the zlib format (RFC 1950), as RFC 9110 defines it and
// body-parser reads it.
const CODINGS: Readonly<Record<string, Coding>> = {
  gzip: { stream: () => zlib.createGunzip(), sync: zlib.gunzipSync },
  deflate: { stream: () => zlib.createInflate(), sync: zlib.inflateSync },
  br: { stream: () => zlib.createBrotliDecompress(), sync: zlib.brotliDecompressSync },
  ...(hasZstd && typeof zstd.zstdDecompressSync === 'function'
    ? {
        zstd: {
          stream: zstd.createZstdDecompress as () => Transform,
          sync: zstd.zstdDecompressSync,
        },
      }
    : {}),
};

/** The decompressors of a content coding (already lower-cased), or null when not supported. */
export function codingOf(name: string): Coding | null {
  return Object.hasOwn(CODINGS, name) ? (CODINGS[name] as Coding) : null;
}
