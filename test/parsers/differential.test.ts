// The same requests through body-parser 2.4.0 and httpware, on real servers: the same
// `req.body`, or the same status, type and message. Each case is one row; add rows freely.
// Rows marked `deliberate` are the documented differences: only httpware's side is checked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import bodyParser from 'body-parser';
import iconv from 'iconv-lite';
import { parsers } from '../../src/index.js';
import type { Middleware, TestServer } from '../helpers/index.js';
import { startServer } from '../helpers/index.js';
import { type Exchange, post } from '../helpers/parsers.js';

/** zlib's zstd, on the Node lines that have it (22.15 and later). */
const { zstdCompressSync } = zlib as unknown as {
  zstdCompressSync?: (input: string) => Buffer;
};

type Kind = 'json' | 'raw' | 'text' | 'urlencoded';

interface Case {
  readonly name: string;
  readonly parser: Kind;
  readonly options?: Record<string, unknown>;
  readonly type?: string;
  readonly body: string | Buffer | ReadonlyArray<string | Buffer>;
  readonly headers?: Record<string, string>;
  /** A documented deliberate difference, with what httpware answers instead. */
  readonly deliberate?: { readonly why: string; readonly status: number; readonly type?: string };
}

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const gzip = (s: string | Buffer) => zlib.gzipSync(s);

const corpus: readonly Case[] = [
  // json
  {
    name: 'json object',
    parser: 'json',
    type: JSON_TYPE,
    body: '{"user":"tobi","n":[1,2,{"x":null}]}',
  },
  { name: 'json empty body', parser: 'json', type: JSON_TYPE, body: '' },
  {
    name: 'json empty chunked body',
    parser: 'json',
    type: JSON_TYPE,
    body: [],
    headers: { 'transfer-encoding': 'chunked' },
  },
  { name: 'json strict primitive', parser: 'json', type: JSON_TYPE, body: 'true' },
  {
    name: 'json strict primitive after blanks',
    parser: 'json',
    type: JSON_TYPE,
    body: ' \t\n"str"',
  },
  { name: 'json strict number', parser: 'json', type: JSON_TYPE, body: '12345' },
  { name: 'json strict blank', parser: 'json', type: JSON_TYPE, body: '   ' },
  {
    name: 'json non-strict primitive',
    parser: 'json',
    options: { strict: false },
    type: JSON_TYPE,
    body: '"str"',
  },
  { name: 'json malformed', parser: 'json', type: JSON_TYPE, body: '{"user":' },
  { name: 'json malformed token', parser: 'json', type: JSON_TYPE, body: '{:"x"}' },
  { name: 'json trailing garbage', parser: 'json', type: JSON_TYPE, body: '{"a":1}x' },
  { name: 'json utf-8 bom', parser: 'json', type: JSON_TYPE, body: Buffer.from('\ufeff{"a":1}') },
  {
    name: 'json utf-16 bom',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf-16`,
    body: iconv.encode('{"a":"论"}', 'utf-16'),
  },
  {
    name: 'json utf-16le',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf-16le`,
    body: iconv.encode('{"a":"论"}', 'utf-16le'),
  },
  {
    name: 'json utf-32',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf-32`,
    body: iconv.encode('{"a":"论"}', 'utf-32'),
  },
  { name: 'json koi8-r', parser: 'json', type: `${JSON_TYPE}; charset=koi8-r`, body: '{}' },
  {
    name: 'json bogus utf charset',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf-9`,
    body: '{}',
  },
  {
    name: 'json utf8 without hyphen',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf8`,
    body: '{}',
  },
  {
    name: 'json upper-case charset',
    parser: 'json',
    type: `${JSON_TYPE}; charset=UTF-8`,
    body: '{"a":1}',
  },
  { name: 'json odd case type', parser: 'json', type: 'APPLICATION/JSON', body: '{"a":1}' },
  { name: 'json other type skipped', parser: 'json', type: 'text/plain', body: '{"a":1}' },
  { name: 'json no content-type', parser: 'json', body: '{"a":1}' },
  {
    name: 'json +json via type',
    parser: 'json',
    options: { type: 'application/*+json' },
    type: 'application/vnd.api+json',
    body: '{"a":1}',
  },
  {
    name: 'json */* type',
    parser: 'json',
    options: { type: '*/*' },
    type: 'text/x-anything',
    body: '[1]',
  },
  {
    name: 'json empty type list',
    parser: 'json',
    options: { type: [] },
    type: 'text/plain',
    body: '[1]',
  },
  {
    name: 'json extension type',
    parser: 'json',
    options: { type: 'json' },
    type: JSON_TYPE,
    body: '[1]',
  },
  {
    name: 'json over limit',
    parser: 'json',
    options: { limit: 10 },
    type: JSON_TYPE,
    body: '{"a":"0123456789"}',
  },
  {
    name: 'json over limit chunked',
    parser: 'json',
    options: { limit: 10 },
    type: JSON_TYPE,
    body: ['{"a":', '"0123456789"}'],
    headers: { 'transfer-encoding': 'chunked' },
  },
  {
    name: 'json gzip',
    parser: 'json',
    type: JSON_TYPE,
    body: gzip('{"a":1}'),
    headers: { 'content-encoding': 'gzip' },
  },
  {
    name: 'json deflate',
    parser: 'json',
    type: JSON_TYPE,
    body: zlib.deflateSync('{"a":1}'),
    headers: { 'content-encoding': 'deflate' },
  },
  {
    name: 'json br',
    parser: 'json',
    type: JSON_TYPE,
    body: zlib.brotliCompressSync('{"a":1}'),
    headers: { 'content-encoding': 'br' },
  },
  {
    name: 'json gzip over limit',
    parser: 'json',
    options: { limit: 100 },
    type: JSON_TYPE,
    body: gzip(`{"a":"${'x'.repeat(500)}"}`),
    headers: { 'content-encoding': 'gzip' },
  },
  {
    name: 'json unknown encoding',
    parser: 'json',
    type: JSON_TYPE,
    body: 'x',
    headers: { 'content-encoding': 'nulls' },
  },
  // zstd: both refuse it (415) on a Node without it; where Node has it, both inflate it, and
  // a corrupt zstd body is the corrupt-compressed-body difference of every other coding.
  {
    name: 'json zstd',
    parser: 'json',
    type: JSON_TYPE,
    body: zstdCompressSync ? zstdCompressSync('{"z":1}') : 'x',
    headers: { 'content-encoding': 'zstd' },
  },
  {
    name: 'json corrupt zstd',
    parser: 'json',
    type: JSON_TYPE,
    body: 'x',
    headers: { 'content-encoding': 'zstd' },
    ...(zstdCompressSync && {
      deliberate: {
        why: 'corrupt compressed data gets a stable type',
        status: 400,
        type: 'entity.inflate.failed',
      },
    }),
  },
  {
    name: 'json inflate false',
    parser: 'json',
    options: { inflate: false },
    type: JSON_TYPE,
    body: gzip('{}'),
    headers: { 'content-encoding': 'gzip' },
  },
  {
    name: 'json corrupt gzip',
    parser: 'json',
    type: JSON_TYPE,
    body: Buffer.from('1f8b080000000000000bab56cc4d55b2527ab16e97522d00515be1cc0e000000', 'hex'),
    headers: { 'content-encoding': 'gzip' },
    deliberate: {
      why: 'corrupt compressed data gets a stable type',
      status: 400,
      type: 'entity.inflate.failed',
    },
  },
  {
    name: 'json __proto__ key',
    parser: 'json',
    type: JSON_TYPE,
    body: '{"__proto__":{"admin":true}}',
    deliberate: {
      why: 'prototype poisoning refused by default',
      status: 400,
      type: 'entity.prototype.forbidden',
    },
  },
  {
    name: 'json __proto__ key ignored',
    parser: 'json',
    options: { onProtoPoisoning: 'ignore' },
    type: JSON_TYPE,
    body: '{"__proto__":{"admin":true}}',
  },
  {
    name: 'json utf-7',
    parser: 'json',
    type: `${JSON_TYPE}; charset=utf-7`,
    body: '{"a":"+ADw-"}',
    deliberate: { why: 'JSON charsets are Unicode only', status: 415, type: 'charset.unsupported' },
  },
  // raw
  {
    name: 'raw bytes',
    parser: 'raw',
    type: 'application/octet-stream',
    body: Buffer.from([0, 1, 254, 255]),
  },
  { name: 'raw empty', parser: 'raw', type: 'application/octet-stream', body: '' },
  {
    name: 'raw charset ignored',
    parser: 'raw',
    type: 'application/octet-stream; charset=x-bogus',
    body: 'abc',
  },
  {
    name: 'raw application/*',
    parser: 'raw',
    options: { type: 'application/*' },
    type: 'application/pdf',
    body: 'abc',
  },
  {
    name: 'raw over limit',
    parser: 'raw',
    options: { limit: '1kb' },
    type: 'application/octet-stream',
    body: Buffer.alloc(1025),
  },
  // text
  { name: 'text plain', parser: 'text', type: 'text/plain', body: 'user is tobi' },
  { name: 'text empty', parser: 'text', type: 'text/plain', body: '' },
  {
    name: 'text koi8-r',
    parser: 'text',
    type: 'text/plain; charset=koi8-r',
    body: iconv.encode('привет', 'koi8-r'),
  },
  {
    name: 'text utf-16 bom',
    parser: 'text',
    type: 'text/plain; charset=utf-16',
    body: iconv.encode('hi', 'utf-16'),
  },
  { name: 'text bogus charset', parser: 'text', type: 'text/plain; charset=x-bogus', body: 'hi' },
  {
    name: 'text bogus charset with verify',
    parser: 'text',
    options: { verify: () => {} },
    type: 'text/plain; charset=x-bogus',
    body: 'hi',
  },
  {
    name: 'text defaultCharset',
    parser: 'text',
    options: { defaultCharset: 'koi8-r' },
    type: 'text/plain',
    body: iconv.encode('привет', 'koi8-r'),
  },
  {
    name: 'text/* type',
    parser: 'text',
    options: { type: 'text/*' },
    type: 'text/html',
    body: '<p>',
  },
  {
    name: 'text invalid utf-8',
    parser: 'text',
    type: 'text/plain',
    body: Buffer.from([0x61, 0xff, 0xfe, 0x62]),
  },
  // urlencoded
  { name: 'form flat', parser: 'urlencoded', type: FORM, body: 'user=tobi&pet=loki' },
  { name: 'form empty', parser: 'urlencoded', type: FORM, body: '' },
  { name: 'form repeated keys', parser: 'urlencoded', type: FORM, body: 'a=1&a=2&a=3' },
  {
    name: 'form brackets not extended',
    parser: 'urlencoded',
    type: FORM,
    body: 'a[b]=1&a[]=2&c[0]=3',
  },
  { name: 'form plus and percent', parser: 'urlencoded', type: FORM, body: 'a=b+c%20d&e=%zz&=x&f' },
  {
    name: 'form extended nesting',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: 'a[b][c]=1&a[d][]=2&a[d][]=3',
  },
  {
    name: 'form extended long array',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: Array.from({ length: 150 }, (_, i) => `f[${i}]=${i}`).join('&'),
  },
  {
    name: 'form extended values appended to an indexed array',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: 'a[0]=x&a[]=y&a[]=z&b[2]=u&b[]=v&b[]=w&c[]=p&c[0]=q',
  },
  {
    name: 'form extended one name as value, object and array',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: 'a=1&a[b]=2&c[d]=3&c=&e[0][f]=4&e[0]=5&e[0]=6&g[x]=7&g[0]=8',
  },
  {
    name: 'form extended sparse index',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: 'a[1000]=x&b[2]=y',
  },
  {
    name: 'form extended prototype keys',
    parser: 'urlencoded',
    options: { extended: true },
    type: FORM,
    body: '__proto__[x]=1&constructor[prototype][y]=2&hasOwnProperty=3&toString=4',
  },
  {
    name: 'form extended depth at limit',
    parser: 'urlencoded',
    options: { extended: true, depth: 3 },
    type: FORM,
    body: 'a[b][c][d]=1',
  },
  {
    name: 'form extended depth past limit',
    parser: 'urlencoded',
    options: { extended: true, depth: 3 },
    type: FORM,
    body: 'a[b][c][d][e]=1',
  },
  {
    name: 'form extended depth 0',
    parser: 'urlencoded',
    options: { extended: true, depth: 0 },
    type: FORM,
    body: 'a[b]=1',
  },
  {
    name: 'form parameterLimit at',
    parser: 'urlencoded',
    options: { parameterLimit: 2 },
    type: FORM,
    body: 'a=1&b=2',
  },
  {
    name: 'form parameterLimit past',
    parser: 'urlencoded',
    options: { parameterLimit: 2 },
    type: FORM,
    body: 'a=1&b=2&c=3',
  },
  {
    name: 'form escaped brackets only',
    parser: 'urlencoded',
    type: FORM,
    body: '%5Ba%5D=1&b=%5bc%5d=d&e=f%5D=g',
  },
  {
    name: 'form many spaces, escapes and characters sent as they are',
    parser: 'urlencoded',
    type: FORM,
    body: `a=${'x+'.repeat(40)}%C3%A9+é+😀+%F0%9F%98%80&b=%zz+${'+'.repeat(20)}&c+d+e+f+g+h+i+j+k=1`,
  },
  {
    name: 'form names Object.prototype has',
    parser: 'urlencoded',
    type: FORM,
    body: 'constructor=c&toString=t&toString=u&valueOf&hasOwnProperty=h&__proto__=p',
  },
  {
    name: 'form iso-8859-1',
    parser: 'urlencoded',
    type: `${FORM}; charset=iso-8859-1`,
    body: 'a=caf%E9',
  },
  { name: 'form koi8-r', parser: 'urlencoded', type: `${FORM}; charset=koi8-r`, body: 'a=b' },
  {
    name: 'form sentinel utf-8',
    parser: 'urlencoded',
    options: { charsetSentinel: true, defaultCharset: 'iso-8859-1' },
    type: FORM,
    body: 'utf8=%E2%9C%93&a=%C3%A9',
  },
  {
    name: 'form sentinel latin-1',
    parser: 'urlencoded',
    options: { charsetSentinel: true },
    type: FORM,
    body: 'utf8=%26%2310003%3B&a=%E9',
  },
  {
    name: 'form numeric entities',
    parser: 'urlencoded',
    options: { interpretNumericEntities: true },
    type: `${FORM}; charset=iso-8859-1`,
    body: 'a=%26%238364%3B',
  },
  { name: 'form many ampersands', parser: 'urlencoded', type: FORM, body: '&'.repeat(5000) },
];

const factories = {
  ours: parsers as unknown as Record<Kind, (o?: unknown) => Middleware>,
  theirs: bodyParser as unknown as Record<Kind, (o?: unknown) => Middleware>,
};

interface Seen {
  readonly status: number;
  readonly body?: unknown;
  readonly type?: unknown;
  readonly message?: unknown;
}

function describeOutcome({ reply, outcome }: Exchange): Seen {
  const err = outcome.error as { type?: unknown; message?: unknown } | undefined;
  if (err === undefined) return { status: reply.status, body: outcome.body };
  return { status: reply.status, type: err.type, message: err.message };
}

describe('differential: httpware vs body-parser 2.4.0', () => {
  let ours: TestServer;
  let theirs: TestServer;
  // One server per side; each request picks its parser (and options) by case index.
  const pick = (side: keyof typeof factories): Middleware => {
    const built = corpus.map((c) => factories[side][c.parser](c.options));
    return (req, res, next) => {
      const index = Number(req.headers['x-case']);
      (built[index] as Middleware)(req, res, next);
    };
  };

  before(async () => {
    ours = await startServer({ middleware: [pick('ours')] });
    theirs = await startServer({ middleware: [pick('theirs')] });
  });
  after(async () => {
    await ours.close();
    await theirs.close();
  });

  corpus.forEach((c, index) => {
    it(c.deliberate ? `${c.name} (deliberate: ${c.deliberate.why})` : c.name, async () => {
      const headers = { ...c.headers, 'x-case': String(index) };
      const mine = describeOutcome(await post(ours, c.type, c.body, headers));
      if (c.deliberate) {
        assert.equal(mine.status, c.deliberate.status);
        assert.equal(mine.type, c.deliberate.type);
        return;
      }
      const reference = describeOutcome(await post(theirs, c.type, c.body, headers));
      assert.deepEqual(mine, reference);
    });
  });
});
