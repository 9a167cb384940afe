// Keeping a body's bytes in memory bounded by the limit however the body is chunked.
//
// A chunk is a view: on Node a slice of the socket's read buffer (several chunks of one read
// share it), on Deno a view of a 64 KiB buffer of its own, however few bytes it holds. Kept as
// they come, a body sent a byte at a time costs a Buffer object per byte everywhere (a 1 MiB
// body: 430-490 MiB on Node and Bun) and, on Deno, 64 KiB per byte (a 16 KiB body: 762 MiB).
// So a chunk is kept as it is only when it is large and not a small window onto a larger
// buffer (Node's 16-64 KiB reads are, and are used without a copy); any other is copied into
// one buffer (Gathered), sized from the announced length or grown by doubling, never past
// what the body may still bring.

/** The least a chunk must hold to be kept as it came. */
const KEEP_MIN_BYTES = 8 * 1024;
/** A gathering buffer's first size when the body's length is unknown. */
const GATHER_MIN_BYTES = 16 * 1024;

/**
 * Whether a chunk can be kept as it came: large, and at least half of the buffer it keeps
 * alive (so kept chunks cost at most twice their bytes, plus a few per cent of objects).
 */
export function isCompact(chunk: Uint8Array): boolean {
  return chunk.length >= KEEP_MIN_BYTES && chunk.buffer.byteLength <= 2 * chunk.length;
}

/** Chunks copied end to end into one buffer that grows by doubling, up to `max` bytes. */
export class Gathered {
  private buffer: Buffer;
  private filled = 0;

  /**
   * @param size the bytes expected (the announced length), or null to start small and double.
   * @param max the most bytes the body may bring (the limit, or an announced length): the
   *   buffer never grows past it, and a caller never appends past it.
   */
  constructor(
    size: number | null,
    private readonly max: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(size ?? GATHER_MIN_BYTES, max));
  }

  append(chunk: Uint8Array): void {
    const end = this.filled + chunk.length;
    if (end > this.buffer.length) this.grow(end);
    this.buffer.set(chunk, this.filled);
    this.filled = end;
  }

  /** The bytes gathered, over the same memory. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.filled);
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafe(Math.max(needed, Math.min(2 * this.buffer.length, this.max)));
    this.buffer.copy(larger, 0, 0, this.filled);
    this.buffer = larger;
  }
}

/** A streaming decoder: Node's StringDecoder, or iconv-lite's (whose `end` may give nothing). */
export interface TextStream {
  write(bytes: Buffer): string;
  end(): string | undefined;
}

/** Bytes a decoder or a decompressor is given at once, small chunks copied together first. */
export const STAGE_BYTES = 16 * 1024;

/**
 * Small chunks copied together into blocks of `size` bytes before `sink` sees them; a chunk at
 * least a block long goes on as it is. Every block but the last is whole, or a chunk at least
 * as long, and the blocks keep the chunks' order. A block handed on is not written again, so
 * the sink may keep it (a decoder's partial character, a decompressor's queue).
 */
export class Blocks {
  private stage: Buffer | null = null;
  private staged = 0;

  constructor(
    private readonly size: number,
    private readonly sink: (bytes: Buffer) => void,
  ) {}

  write(chunk: Buffer): void {
    let rest = chunk;
    const { stage } = this;
    if (stage !== null) {
      const taken = rest.copy(stage, this.staged);
      this.staged += taken;
      if (this.staged < this.size) return;
      this.flush();
      rest = rest.subarray(taken);
    }
    if (rest.length >= this.size) this.sink(rest);
    else if (rest.length > 0) {
      this.stage = Buffer.allocUnsafe(this.size);
      this.staged = rest.copy(this.stage);
    }
  }

  /** Hands on what is staged, if anything. */
  flush(): void {
    const { stage } = this;
    if (stage === null) return;
    this.stage = null;
    this.sink(stage.subarray(0, this.staged));
    this.staged = 0;
  }
}

/**
 * A body decoded as it arrives, so that its chunks can go as soon as they are read (raw-body
 * does so for body-parser). Small chunks are copied together into blocks of STAGE_BYTES (or the
 * limit, if lower) before the decoder sees them: a body sent a byte at a time is then decoded
 * in a few calls rather than a string piece per byte. The first write holds the body's first
 * 16 KiB (or all of it): iconv-lite guesses a `utf-16` or `utf-32` body's byte order from its
 * first 100 characters, which it then sees as it does decoding the body in one call.
 */
export class Decoding {
  private text = '';
  private readonly blocks: Blocks;

  constructor(
    private readonly decoder: TextStream,
    limit: number,
  ) {
    this.blocks = new Blocks(Math.min(STAGE_BYTES, limit), (bytes) => {
      this.text += this.decoder.write(bytes);
    });
  }

  write(chunk: Buffer): void {
    this.blocks.write(chunk);
  }

  /** The whole text; the decoder is done. */
  end(): string {
    this.blocks.flush();
    const text = this.text + (this.decoder.end() ?? '');
    this.text = '';
    return text;
  }
}
