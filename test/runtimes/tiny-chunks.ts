// A body read a byte at a time through `read(request)`, each byte a view of a 64 KiB buffer of
// its own, which is what Deno's server hands over for a body that trickles in: on Deno a kept
// chunk keeps its whole buffer, so memory must stay bounded by the limit, not by the chunks.
// Run on Bun and Deno by ./web.ts (and by Node, as a check of the check).
import parsers from '../../entries/parsers.mjs';
import type { RunnerCheck } from './runner.js';

const LIMIT = 64 * 1024;
const BACKING = 64 * 1024;
const PAGE = 4096;
const MB = 1024 * 1024;
/**
 * Peak RSS growth allowed: the chunks kept would pin 4 GiB (the bound is passed within the first
 * 12,000 bytes); read as they come, what is left is the runtime's garbage of those 4 GiB of
 * buffers, which its collector takes back at its own pace (measured 0-70 MB on Bun 1.4 and
 * Deno 2.9 on a quiet machine, 283 MB once on Deno with both cores busy).
 */
const BOUND = 768 * MB;

const rss = (): number => process.memoryUsage().rss;

/**
 * A body of `bytes` sent one byte at a time, each in a buffer of 64 KiB whose pages were
 * written (as a read fills them), that fails as soon as the process grew by more than BOUND,
 * so a reader that keeps its chunks fails the check rather than the machine.
 */
function oneByteStream(bytes: Uint8Array, peak: { growth: number }): ReadableStream<Uint8Array> {
  const base = rss();
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at === bytes.length) {
          controller.close();
          return;
        }
        const backing = new Uint8Array(BACKING);
        for (let page = 0; page < BACKING; page += PAGE) backing[page] = 1;
        backing[0] = bytes[at++] as number;
        controller.enqueue(backing.subarray(0, 1));
        if (at % 512 === 0) {
          peak.growth = Math.max(peak.growth, rss() - base);
          if (peak.growth > BOUND) controller.error(new Error(`RSS grew by ${peak.growth}`));
        }
      },
    },
    { highWaterMark: 0 },
  );
}

type Parser = (typeof parsers)['json'];
/** A case's Content-Length is sent when its name says "length announced". */
const cases: ReadonlyArray<readonly [string, Parser, string, string, Record<string, unknown>]> = [
  ['json, verify', parsers.json, 'application/json', 'utf-8', { verify: () => {} }],
  // Held as bytes and decoded once it ended (web-body.ts, decodesWhole), not decoded as it came.
  ['json, its length announced', parsers.json, 'application/json', 'utf-8', {}],
  ['json, rawBody', parsers.json, 'application/json', 'utf-8', { rawBody: true }],
  ['json in UTF-16LE', parsers.json, 'application/json; charset=utf-16le', 'utf-16le', {}],
  ['text, verify', parsers.text, 'text/plain', 'utf-8', { verify: () => {} }],
  ['text in UTF-16LE', parsers.text, 'text/plain; charset=utf-16le', 'utf-16le', {}],
  [
    'urlencoded, rawBody',
    parsers.urlencoded,
    'application/x-www-form-urlencoded',
    'utf-8',
    {
      rawBody: true,
    },
  ],
  ['raw', parsers.raw as Parser, 'application/octet-stream', 'utf-8', {}],
];

function bodyOf(type: string, charset: string): Uint8Array {
  const room = (charset === 'utf-16le' ? LIMIT / 2 : LIMIT) - 32;
  const text = type.startsWith('application/json')
    ? JSON.stringify({ a: 'x'.repeat(room) })
    : type.startsWith('application/x-www')
      ? `a=${'x'.repeat(room)}`
      : 'x'.repeat(room);
  return charset === 'utf-16le'
    ? new Uint8Array(Buffer.from(text, 'utf16le'))
    : new TextEncoder().encode(text);
}

export const tinyChunkChecks: RunnerCheck[] = cases.map(
  ([name, parser, type, charset, options]) => ({
    name: `read(request), ${name}: a 64 KiB body a byte at a time, each byte in a 64 KiB buffer, grows RSS by less than ${BOUND / MB} MB`,
    run: async () => {
      const bytes = bodyOf(type, charset);
      // The same stream read and dropped first: the runtime's heap grows to what its 4 GiB of
      // buffers take (its garbage), so the figure below is what the reader kept on top.
      const alone = { growth: 0 };
      const reader = oneByteStream(bytes, alone).getReader();
      while (!(await reader.read()).done) {}
      const peak = { growth: 0 };
      const body = oneByteStream(bytes, peak);
      const request = new Request('http://127.0.0.1/', {
        method: 'POST',
        body,
        headers: {
          'content-type': type,
          ...(name.includes('length announced') && { 'content-length': String(bytes.length) }),
        },
        duplex: 'half',
      } as RequestInit);
      const parsed = await parser.read(request, { limit: LIMIT, ...options });
      if (parsed === undefined || parsed === null) throw new Error('nothing parsed');
      console.log(
        `# ${name}: peak RSS growth ${(peak.growth / MB).toFixed(1)} MB (the stream alone: ${(alone.growth / MB).toFixed(1)} MB)`,
      );
    },
  }),
);
