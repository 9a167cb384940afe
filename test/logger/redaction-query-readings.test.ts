// One reading of a query: whatever parser the application reads its query with, a value it
// finds under a listed name never reaches a line. The readings are Express's own: `extended`
// (`qs`, as Express 4 calls it by default and Express 5 when set) and `simple` (Node's
// `querystring`), and URLSearchParams. They disagree on where a key ends: `qs` splits a part
// at `]=` when it holds one, before its first `=`, so `?z=1&a=b[token]=S` is
// `req.query['a=b'].token` there and `a` = `b[token]=S` to the others. Every value slot of a
// generated query holds a marker (`V12Q`); a marker found under a listed name by any reading
// must appear in no line, text or JSON, through `:url`, `:query`, `:referrer` and a Referer.
import assert from 'node:assert/strict';
import type http from 'node:http';
import querystring from 'node:querystring';
import { after, before, describe, test } from 'node:test';
import { hostileSetup } from '../helpers/hostile.js';
import {
  captureLines,
  type LineCapture,
  rawHead,
  sendRaw,
  startServer,
  type TestServer,
} from '../helpers/index.js';
import { fc } from '../helpers/properties.js';

const hostile = hostileSetup();

const MARKER = /V\d+Q/g;

/** Whether a key names a listed parameter (the policy compares names case-insensitively). */
function listed(key: string): boolean {
  return hostile.subject.redactDefaults.query.some(
    (name) => name.toLowerCase() === key.toLowerCase(),
  );
}

/** The markers an application finds under a listed key, at any depth of a parsed query. */
function markersUnderListed(value: unknown, under: boolean, found: Set<string>): Set<string> {
  if (typeof value === 'string') {
    if (under) for (const marker of value.match(MARKER) ?? []) found.add(marker);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      markersUnderListed(inner, under || listed(key), found);
    }
  }
  return found;
}

/** The simple readings: Express's `simple` (Node's querystring) and URLSearchParams. */
function simpleReadings(query: string): unknown[] {
  return [{ ...querystring.parse(query) }, Object.fromEntries(new URLSearchParams(query))];
}

interface Reading {
  /** What `req.query` held for each request, in order. */
  readonly queries: unknown[];
  readonly text: LineCapture;
  readonly json: LineCapture;
  readonly server: TestServer;
}

/**
 * A server in `framework` with the extended query parser, a text logger writing every URL token
 * (and a format function reading `tokens.url`) and a `json` logger; the handler keeps
 * `req.query`.
 */
async function readingServer(framework: 'express4' | 'express5'): Promise<Reading> {
  const text = captureLines();
  const json = captureLines();
  const queries: unknown[] = [];
  const { logger } = hostile.subject;
  const server = await startServer({
    framework,
    middleware: [
      (req, _res, next) => {
        // Express 4 parses with `qs` by default; Express 5 when told.
        (req as unknown as { app: { set(k: string, v: string): void } }).app.set(
          'query parser',
          'extended',
        );
        next();
      },
      logger(':url :query :referrer :req[referer]', { stream: text.stream }),
      logger((tokens, req, res) => `${tokens.url?.(req, res)} ${tokens.referrer?.(req, res)}`, {
        stream: text.stream,
      }),
      logger('json', { stream: json.stream }),
    ],
    handler: (req: http.IncomingMessage, res) => {
      queries.push((req as unknown as { query: unknown }).query);
      res.end('ok');
    },
  });
  return { queries, text, json, server };
}

/** The lines of one request to `/p?query`, with `Referer: https://h/r?query`. */
async function linesFor(reading: Reading, query: string, index: number) {
  const head = rawHead('GET', `/p?${query}`, {
    referer: `https://h.example/r?${query}`,
    connection: 'close',
  });
  const reply = await sendRaw(reading.server, [head]);
  assert.equal(reply.status, 200, `GET /p?${query}: ${reply.raw.slice(0, 200)}`);
  const text = await reading.text.waitFor(2 * (index + 1));
  const json = await reading.json.waitFor(index + 1);
  return {
    appQuery: reading.queries[index],
    lines: [...text.slice(2 * index, 2 * index + 2), json[index] as string],
  };
}

/** The listed markers of `query` in the application's and the simple readings. */
function secretsOf(query: string, appQuery: unknown): Set<string> {
  const found = markersUnderListed(appQuery, false, new Set());
  for (const reading of simpleReadings(query)) markersUnderListed(reading, false, found);
  return found;
}

function assertMasked(query: string, appQuery: unknown, lines: readonly string[]) {
  for (const marker of secretsOf(query, appQuery)) {
    for (const line of lines) {
      assert.ok(
        !line.includes(marker),
        `${marker} is under a listed name in ${JSON.stringify(query)} (req.query ${JSON.stringify(appQuery)}) but the line shows it: ${line}`,
      );
    }
  }
}

/** The queries the attacker's run found unmasked, and their neighbours. */
const KNOWN = [
  'z=1&a=b[token]=V1Q',
  'a=b[token]=V1Q',
  'a=b%5Btoken%5D=V1Q',
  'a=b[token%5D=V1Q',
  'a=b%5btoken]=V1Q',
  'x=1;a[token]=V1Q',
  'x=V1Q;a[b][token]=V2Q&c=3',
  'a=b=c[access_token]=V1Q',
  'x=1;a=2[token]=V1Q',
  'a%3Db[token]=V1Q',
  'x[token]y;z]=V1Q',
  'a[b][c][d][e][token]=V1Q',
  'a=[token]=V1Q',
  '[token]=V1Q',
  'a=%5B%5D[token]=V1Q',
  'a%ZZ=b[token]=V1Q',
  'a=b%ZZ[token]=V1Q',
  'a%ZZ=b%5Btoken%5D=V1Q',
  'a=b[to%6Ben]=V1Q',
  'a=b[TOKEN]=V1Q',
  'a+b=c[token]+x]=V1Q',
  // The query of `/p??token=S`: URLSearchParams drops the `?` it starts with (found by a seed).
  '?token=V1Qtoken',
];

/** Pieces a query is made of: listed and other names, the separators each parser knows. */
const PIECES = [
  'token',
  'access_token',
  'TOKEN',
  'to%6Ben',
  'a',
  'b',
  '[',
  ']',
  '[]',
  '%5B',
  '%5D',
  '%5b',
  '=',
  '=',
  '%3D',
  '&',
  '&',
  ';',
  '+',
  '.',
  '%ZZ',
  '%',
  '?',
  '[token]',
  ']=',
] as const;

/** A query of pieces and value slots; each slot becomes a fresh marker. */
const queryArb = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PIECES) }, fc.constant('$')), {
    minLength: 1,
    maxLength: 14,
  })
  .map((parts) => {
    let n = 0;
    return parts.map((part) => (part === '$' ? `V${++n}Q` : part)).join('');
  });

for (const framework of ['express4', 'express5'] as const) {
  describe(`one reading of a query (${framework}, extended)`, () => {
    let reading: Reading;
    let sent = 0;
    before(async () => {
      await hostile.ready;
      reading = await readingServer(framework);
    });
    after(() => reading.server.close());

    for (const query of KNOWN) {
      test(`no value under a listed name shows from ${query}`, async () => {
        const { appQuery, lines } = await linesFor(reading, query, sent++);
        assert.ok(secretsOf(query, appQuery).size > 0, `${query} holds a listed value`);
        assertMasked(query, appQuery, lines);
      });
    }

    test('no value under a listed name shows, for generated queries', async () => {
      await fc.assert(
        fc.asyncProperty(queryArb, async (query) => {
          const { appQuery, lines } = await linesFor(reading, query, sent++);
          assertMasked(query, appQuery, lines);
        }),
        { numRuns: 300 },
      );
    });
  });
}
