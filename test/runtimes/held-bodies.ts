// A body the runtime holds whole in memory (a Request made from a string or bytes) against the
// same bytes given as a stream the application made: `read` answers both alike, error for
// error (lengths that lie, limits, codings, types), and leaves both used. On Deno the held body
// is taken by the runtime's own whole-body read, without a stream (src/parsers/held-body.ts);
// elsewhere both go through the body's stream. Run on Bun and Deno by ./web.ts (and by Node,
// as a check of the check).
import { gzipSync } from 'node:zlib';
import parsers from '../../entries/parsers.mjs';
import { type RunnerCheck, runtimeName } from './runner.js';

const JSON_TYPE = { 'content-type': 'application/json' };

interface Case {
  readonly name: string;
  readonly body: string | Uint8Array;
  readonly headers: Record<string, string>;
  readonly options?: Record<string, unknown>;
  readonly parser?: 'json' | 'text';
}

const inflating = gzipSync(JSON.stringify({ pad: ' '.repeat(200_000) }));

const cases: readonly Case[] = [
  { name: 'a JSON body', body: '{"a":[1,"é"]}', headers: JSON_TYPE },
  { name: 'a JSON body as bytes', body: new TextEncoder().encode('{"b":2}'), headers: JSON_TYPE },
  { name: 'an empty body', body: '', headers: JSON_TYPE },
  {
    name: 'a body shorter than its Content-Length',
    body: '{"a":1}',
    headers: { ...JSON_TYPE, 'content-length': '20' },
  },
  {
    name: 'a body longer than its Content-Length',
    body: '{"a":1}',
    headers: { ...JSON_TYPE, 'content-length': '3' },
  },
  {
    name: 'a body past the limit, no Content-Length',
    body: '{"a":"xxxxxxxxxxxx"}',
    headers: JSON_TYPE,
    options: { limit: 8 },
  },
  {
    name: 'a Content-Length past the limit',
    body: '{"a":"xxxxxxxxxxxx"}',
    headers: { ...JSON_TYPE, 'content-length': '20' },
    options: { limit: 8 },
  },
  { name: 'a body that is no JSON', body: '{"a":', headers: JSON_TYPE },
  { name: 'a body of another type', body: '{"a":1}', headers: { 'content-type': 'text/html' } },
  {
    name: 'a gzip body',
    body: gzipSync('{"z":1}'),
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
  },
  {
    name: 'a gzip body that inflates past the limit',
    body: inflating,
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
    options: { limit: '100kb' },
  },
  {
    name: 'a gzip body longer than its Content-Length',
    body: inflating,
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip', 'content-length': '100' },
  },
  {
    name: 'a text body in UTF-16LE',
    body: new Uint8Array(Buffer.from('héllo', 'utf16le')),
    headers: { 'content-type': 'text/plain; charset=utf-16le' },
    parser: 'text',
  },
];

/** A Request with `body` held (given as it is) or as a stream the application made. */
function requestOf({ body, headers }: Case, streamed: boolean): Request {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes.slice());
      controller.close();
    },
  });
  return new Request('http://127.0.0.1/', {
    method: 'POST',
    headers,
    body: streamed ? stream : body,
    ...(streamed ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** What a read answered: its value, or its error's type, status and counts. */
async function outcomeOf(reading: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify({ value: await reading });
  } catch (err) {
    const { type, status, expected, length, limit, received } = err as Record<string, unknown>;
    return JSON.stringify({ type, status, expected, length, limit, received });
  }
}

interface ReadAnswers {
  readonly first: string;
  readonly second: string;
  readonly used: boolean;
  /** Whether the runtime's own whole-body read (`bytes()`) was called. */
  readonly wholeRead: boolean;
}

/** Reads the Request, then reads it again: both answers, whether it is used, and how it was read. */
async function readTwice(kase: Case, streamed: boolean): Promise<ReadAnswers> {
  const request = requestOf(kase, streamed);
  const own = (request as { bytes?: () => Promise<Uint8Array> }).bytes;
  let wholeRead = false;
  Object.defineProperty(request, 'bytes', {
    configurable: true,
    value(this: Request) {
      wholeRead = true;
      return (own as () => Promise<Uint8Array>).call(this);
    },
  });
  const parser = (kase.parser === 'text' ? parsers.text : parsers.json) as typeof parsers.json;
  const first = await outcomeOf(parser.read(request, kase.options ?? {}));
  const second = await outcomeOf(parser.read(request, kase.options ?? {}));
  return { first, second, used: request.bodyUsed, wholeRead };
}

export const heldBodyChecks: RunnerCheck[] = cases.map((kase) => ({
  name: `read(request), ${kase.name}: held in memory, answered as the same bytes streamed`,
  run: async () => {
    const held = await readTwice(kase, false);
    const streamed = await readTwice(kase, true);
    if (streamed.wholeRead) throw new Error('a stream was read whole');
    const answers = ({ first, second, used }: ReadAnswers) => JSON.stringify([first, second, used]);
    if (answers(held) !== answers(streamed)) {
      throw new Error(`held ${JSON.stringify(held)}\nstreamed ${JSON.stringify(streamed)}`);
    }
  },
}));

// Deno holds a body made from a string or bytes until its `body` is read: `read` then takes it
// with the runtime's own read, and makes no stream of it. A body read as a stream first (its
// `body` got), and one to inflate as a stream, go through the stream.
heldBodyChecks.push({
  name: `read(request): a body held in memory is taken by the runtime's own read ${runtimeName === 'deno' ? 'on Deno' : `(not on ${runtimeName})`}, a stream never`,
  run: async () => {
    const plain = cases[0] as Case;
    const held = await readTwice(plain, false);
    if (held.wholeRead !== (runtimeName === 'deno')) {
      throw new Error(`read whole: ${held.wholeRead} on ${runtimeName}`);
    }
    const request = requestOf(plain, false);
    const stream = request.body;
    let wholeRead = false;
    Object.defineProperty(request, 'bytes', {
      configurable: true,
      value: () => {
        wholeRead = true;
        return Promise.reject(new Error('not to be called'));
      },
    });
    const value = await parsers.json.read(request);
    if (JSON.stringify(value) !== '{"a":[1,"é"]}' || wholeRead || stream?.locked !== true) {
      throw new Error(
        `a body whose stream was made: ${JSON.stringify(value)}, read whole ${wholeRead}`,
      );
    }
  },
});
