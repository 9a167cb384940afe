import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import bodyParser from 'body-parser';
import iconv from 'iconv-lite';
import {
  activeResources,
  assertHttpError,
  assertResourcesSettle,
  hostileSetup,
  listenerProbe,
  plain,
  type Subject,
} from '../helpers/hostile.js';
import {
  type Middleware,
  rawHead,
  send,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fc } from '../helpers/properties.js';

const hostile = hostileSetup();

// Properties of the parsers through a real server. For any request (body, content type,
// charset, encoding valid or corrupt, Content-Length true or lying, chunking, abort point):
// `next` is called exactly once; the outcome is a body or an error with a status in 400-599
// and a documented type; nothing is thrown uncaught; no listener, timer or socket outlives
// the requests. For valid input, req.body is what body-parser 2.4.0 gives.

type ParserName = 'json' | 'raw' | 'text' | 'urlencoded';
const parserNames: readonly ParserName[] = ['json', 'raw', 'text', 'urlencoded'];
const defaultTypes: Record<ParserName, string> = {
  json: 'application/json',
  raw: 'application/octet-stream',
  text: 'text/plain',
  urlencoded: 'application/x-www-form-urlencoded',
};

interface Record_ {
  calls: number;
  error: unknown;
  body: unknown;
}

/**
 * Wraps a parser so each request's outcome is kept under its `x-id` header: robust to the
 * extra outcomes a lying Content-Length produces (the leftover bytes are another request).
 */
function recording(mw: Middleware, records: Map<string, Record_>): Middleware {
  return (req, res, next) => {
    const id = String(req.headers['x-id'] ?? '');
    const record: Record_ = { calls: 0, error: undefined, body: undefined };
    records.set(id, record);
    mw(req, res, (err?: unknown) => {
      record.calls += 1;
      record.error = err;
      record.body = (req as { body?: unknown }).body;
      if (record.calls === 1) next(err);
    });
  };
}

async function recordOf(records: Map<string, Record_>, id: string): Promise<Record_> {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const record = records.get(id);
    if (record && record.calls > 0) {
      // Leave room for a second, wrong call of next.
      await new Promise((r) => setImmediate(r));
      return record;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`request ${id}: next was never called`);
}

const charsets = [
  'utf-8',
  'UTF-8',
  '"utf-8"',
  'utf8',
  'utf-16le',
  'utf-16',
  'utf-32',
  'iso-8859-1',
  'latin1',
  'koi8-r',
  'windows-1252',
  'utf-7',
  'klingon',
  '',
];
const encodings = ['identity', 'gzip', 'deflate', 'br', 'GZIP', 'x-gzip', 'compress', 'zstd'];

const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc
    .array(
      fc.tuple(fc.stringMatching(/^[a-z[\]%0-9.]{0,8}$/), fc.stringMatching(/^[a-z%0-9+=]{0,6}$/)),
      { maxLength: 8 },
    )
    .map((pairs) => Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('&'))),
  fc.string({ unit: 'binary', maxLength: 100 }).map((s) => Buffer.from(s)),
);

function compress(encoding: string, body: Buffer): Buffer {
  switch (encoding.toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gzipSync(body);
    case 'deflate':
      return zlib.deflateSync(body);
    case 'br':
      return zlib.brotliCompressSync(body);
    default:
      return body;
  }
}

const requests = fc.record({
  parser: fc.constantFrom(...parserNames),
  typeKind: fc.constantFrom('default', 'default', 'default', 'other', 'garbage'),
  garbageType: fc.stringMatching(/^[ -~]{0,40}$/),
  charset: fc.option(fc.constantFrom(...charsets), { nil: undefined }),
  encoding: fc.constantFrom(...encodings),
  compressed: fc.boolean(),
  corruptAt: fc.option(fc.nat(), { nil: undefined }),
  truncateBy: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  body: bodies,
  framing: fc.constantFrom('exact', 'exact', 'exact', 'chunked', 'shorter', 'longer', 'none'),
  lengthError: fc.integer({ min: 1, max: 50 }),
  splits: fc.array(fc.nat(), { maxLength: 4 }),
  abortAt: fc.option(fc.nat(), { nil: undefined }),
});

describe('any request', () => {
  let server: TestServer;
  const records = new Map<string, Record_>();
  const probe = listenerProbe();
  let baseline: Record<string, number>;
  let mounted: Record<ParserName, Middleware>;

  before(async () => {
    baseline = activeResources();
    mounted = {
      json: recording(hostile.subject.parsers.json({ verify: () => {} }), records),
      raw: recording(hostile.subject.parsers.raw(), records),
      text: recording(hostile.subject.parsers.text({ limit: 200 }), records),
      urlencoded: recording(hostile.subject.parsers.urlencoded({ extended: true }), records),
    };
    // One server; the path picks the parser.
    const route: Middleware = (req, res, next) => {
      const name = (req.url ?? '/').slice(1) as ParserName;
      const mw = mounted[name];
      if (mw) mw(req, res, next);
      else next();
    };
    server = await startServer({ middleware: [probe.before, route] });
  });

  after(async () => {
    await server.close();
  });

  test('next once; a body or a documented 4xx/5xx; no crash; nothing left behind', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(requests, async (r) => {
        const id = String(n++);
        let payload = r.compressed ? compress(r.encoding, r.body) : r.body;
        if (r.corruptAt !== undefined && payload.length > 0) {
          payload = Buffer.from(payload);
          const at = r.corruptAt % payload.length;
          payload[at] = (payload[at] ?? 0) ^ 0xa5;
        }
        if (r.truncateBy !== undefined) {
          payload = payload.subarray(0, Math.max(0, payload.length - r.truncateBy));
        }
        const type =
          r.typeKind === 'default'
            ? defaultTypes[r.parser]
            : r.typeKind === 'other'
              ? defaultTypes[parserNames[(parserNames.indexOf(r.parser) + 1) % 4]!]
              : r.garbageType.trim();
        const headers: Record<string, string | number> = {
          'x-id': id,
          'content-type': r.charset === undefined ? type : `${type}; charset=${r.charset}`,
          connection: 'close',
        };
        if (r.encoding !== 'identity') headers['content-encoding'] = r.encoding;
        const pieces: Buffer[] = [];
        let abort = false;
        if (r.framing === 'chunked') {
          headers['transfer-encoding'] = 'chunked';
          const cuts = [...new Set(r.splits.map((s) => s % (payload.length + 1)))].sort(
            (a, b) => a - b,
          );
          let last = 0;
          for (const cut of [...cuts, payload.length]) {
            const piece = payload.subarray(last, cut);
            last = cut;
            if (piece.length === 0) continue;
            pieces.push(
              Buffer.from(`${piece.length.toString(16)}\r\n`),
              piece,
              Buffer.from('\r\n'),
            );
          }
          pieces.push(Buffer.from('0\r\n\r\n'));
        } else if (r.framing !== 'none') {
          const length =
            r.framing === 'shorter'
              ? Math.max(0, payload.length - r.lengthError)
              : r.framing === 'longer'
                ? payload.length + r.lengthError
                : payload.length;
          headers['content-length'] = length;
          // A client that promised more than it sends can only leave.
          if (r.framing === 'longer') abort = true;
          const cuts = r.splits.map((s) => s % (payload.length + 1)).sort((a, b) => a - b);
          let last = 0;
          for (const cut of [...cuts, payload.length]) {
            pieces.push(payload.subarray(last, cut));
            last = cut;
          }
        } else {
          payload = Buffer.alloc(0);
        }
        let sent = pieces.filter((p) => p.length > 0);
        if (r.abortAt !== undefined && sent.length > 0) {
          sent = sent.slice(0, r.abortAt % (sent.length + 1));
          abort = true;
        }
        const head = Buffer.from(rawHead('POST', `/${r.parser}`, headers), 'latin1');
        const reply = await sendRaw(server, [head, ...sent], {
          abort,
          delayMs: abort ? 5 : 0,
          timeoutMs: 3000,
        });
        if (!abort) assert.notEqual(reply.ended, 'timeout', 'the server answered');
        const record = await recordOf(records, id);
        assert.equal(record.calls, 1, 'next called exactly once');
        if (record.error !== undefined) assertHttpError(record.error, hostile.documented);
        assert.deepEqual(hostile.uncaught.take(), [], 'no uncaught exception');
      }),
      { numRuns: 400 },
    );
    // Every response finished and left no listener on its request or socket.
    const deadline = Date.now() + 2000;
    while (probe.finished < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(probe.leaks, [], 'listeners left on req or socket');
    await server.close();
    await assertResourcesSettle(baseline);
  });
});

describe('valid input: req.body is what body-parser 2.4.0 gives', () => {
  interface Request {
    headers: Record<string, string>;
    body: Buffer | string;
  }

  /**
   * The property: each drawn request, through httpware and through body-parser with the same
   * options, gives the same body, or errors of the same status and type. A drawn `null` is no
   * request (a body with keys the two treat differently on purpose).
   */
  async function sameAsBodyParser(
    make: (p: Subject['parsers'] | typeof bodyParser) => Middleware,
    requests: fc.Arbitrary<Request | null>,
    numRuns: number,
  ): Promise<void> {
    const oursRecords = new Map<string, Record_>();
    const theirsRecords = new Map<string, Record_>();
    const ours = await startServer({
      middleware: [recording(make(hostile.subject.parsers), oursRecords)],
    });
    const theirs = await startServer({
      middleware: [recording(make(bodyParser), theirsRecords)],
    });
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          fc.pre(request !== null);
          const id = String(n++);
          const headers = { ...request.headers, 'x-id': id };
          await send(ours, { headers, body: request.body });
          await send(theirs, { headers, body: request.body });
          const a = await recordOf(oursRecords, id);
          const b = await recordOf(theirsRecords, id);
          const label = `${JSON.stringify(request.headers)} ${JSON.stringify(String(request.body))}`;
          assert.equal(a.calls, 1);
          if (b.error !== undefined) {
            const be = b.error as { status: number; type: string };
            assertHttpError(a.error, hostile.documented, { status: be.status, type: be.type });
          } else {
            assert.equal(a.error, undefined, `${label}: ${String(a.error)}`);
            assert.deepStrictEqual(plain(a.body), plain(b.body), label);
          }
        }),
        { numRuns },
      );
    } finally {
      await ours.close();
      await theirs.close();
    }
  }

  const encoded = (encoding: string, body: Buffer) =>
    encoding === 'identity' ? body : compress(encoding, body);
  const encodingHeader = (encoding: string): Record<string, string> =>
    encoding === 'identity' ? {} : { 'content-encoding': encoding };

  // Keys that body-parser keeps and httpware refuses by default (README, "Security").
  const poisoned = (text: string) => /__proto__|constructor|prototype/.test(text);
  const jsonRequest = (text: string): Request | null =>
    poisoned(text) ? null : { headers: { 'content-type': 'application/json' }, body: text };
  const formType = (charset: string | undefined) =>
    charset === undefined
      ? 'application/x-www-form-urlencoded'
      : `application/x-www-form-urlencoded; charset=${charset}`;

  test('json: any JSON object or array, in any encoding', async () => {
    const requests = fc
      .record({
        value: fc.oneof(
          fc.array(fc.jsonValue({ maxDepth: 3 })),
          fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
        ),
        encoding: fc.constantFrom('identity', 'gzip', 'deflate', 'br'),
        space: fc.constantFrom(0, 2, '\t'),
      })
      .map(({ value, encoding, space }) => {
        const text = JSON.stringify(value, null, space);
        if (poisoned(text)) return null;
        return {
          headers: { 'content-type': 'application/json', ...encodingHeader(encoding) },
          body: encoded(encoding, Buffer.from(text)),
        };
      });
    await sameAsBodyParser((p) => p.json(), requests, 150);
  });

  test('json with strict: false: any JSON text', async () => {
    const requests = fc
      .jsonValue({ maxDepth: 2 })
      .map((v) => jsonRequest(JSON.stringify(v) ?? 'null'));
    await sameAsBodyParser((p) => p.json({ strict: false }), requests, 100);
  });

  test('json: any string, valid or not, gets the same body or the same error', async () => {
    const requests = fc
      .oneof(fc.string(), fc.stringMatching(/^[\s{}[\]":,0-9a-z\\.-]{0,30}$/))
      .map(jsonRequest);
    await sameAsBodyParser((p) => p.json(), requests, 150);
  });

  for (const extended of [false, true]) {
    test(`urlencoded (extended: ${extended}): any form, valid or odd, in utf-8 and iso-8859-1`, async () => {
      const pairs = fc.array(
        fc.tuple(
          fc.oneof(
            fc.string({ maxLength: 6 }),
            fc.stringMatching(/^[a-z]{1,3}(\[[a-z0-9]{0,2}\]){0,3}$/),
          ),
          fc.string({ maxLength: 6 }),
        ),
        { maxLength: 8 },
      );
      const raw = fc.stringMatching(/^[a-z0-9=&[\]%+.;]{0,40}$/);
      const requests = fc
        .record({
          body: fc.oneof(
            pairs.map((ps) =>
              ps
                .map(([k, v]) => {
                  const key = /^[a-z]+(\[[a-z0-9]*\])*$/.test(k) ? k : encodeURIComponent(k);
                  return `${key}=${encodeURIComponent(v)}`;
                })
                .join('&'),
            ),
            raw,
          ),
          charset: fc.constantFrom(undefined, 'utf-8', 'iso-8859-1'),
          encoding: fc.constantFrom('identity', 'gzip'),
        })
        .map(({ body, charset, encoding }) =>
          poisoned(decodeURIComponentSafe(body))
            ? null
            : {
                headers: { 'content-type': formType(charset), ...encodingHeader(encoding) },
                body: encoded(encoding, Buffer.from(body)),
              },
        );
      await sameAsBodyParser((p) => p.urlencoded({ extended }), requests, 150);
    });

    test(`urlencoded (extended: ${extended}): repeated and mixed keys, charset sentinel and numeric entities`, async () => {
      const key = fc.constantFrom(
        'a',
        'a',
        'a[]',
        'a[0]',
        'a[1]',
        'a[b]',
        'b',
        'b[]',
        'c[d][]',
        'utf8',
      );
      const value = fc.oneof(
        fc.string({ maxLength: 4 }).map(encodeURIComponent),
        fc.constantFrom('%E2%9C%93', '%26%2310003%3B', '&#9731;', '%26%23x41%3B', '%FF', '%', '+'),
      );
      const requests = fc
        .record({
          pairs: fc.array(fc.tuple(key, value), { maxLength: 12 }),
          charset: fc.constantFrom(undefined, 'utf-8', 'iso-8859-1'),
        })
        .map(({ pairs, charset }) => ({
          headers: { 'content-type': formType(charset) },
          body: pairs.map(([k, v]) => `${k}=${v}`).join('&'),
        }));
      await sameAsBodyParser(
        (p) => p.urlencoded({ extended, charsetSentinel: true, interpretNumericEntities: true }),
        requests,
        100,
      );
    });
  }

  test('text: any string in utf-8, utf-16le, iso-8859-1, koi8-r and windows-1252', async () => {
    const requests = fc
      .record({
        text: fc.string({ unit: 'grapheme', maxLength: 40 }),
        charset: fc.constantFrom('utf-8', 'utf-16le', 'iso-8859-1', 'koi8-r', 'windows-1252'),
        encoding: fc.constantFrom('identity', 'deflate'),
      })
      .map(({ text, charset, encoding }) => ({
        headers: { 'content-type': `text/plain; charset=${charset}`, ...encodingHeader(encoding) },
        body: encoded(encoding, iconv.encode(text, charset)),
      }));
    await sameAsBodyParser((p) => p.text(), requests, 150);
  });

  test('raw: any bytes', async () => {
    const requests = fc.uint8Array({ maxLength: 200 }).map((a) => ({
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from(a),
    }));
    await sameAsBodyParser((p) => p.raw(), requests, 100);
  });
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
