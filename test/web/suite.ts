// The behaviour suite of the Web door: checks that take a running server of the app in
// test/fixtures/web/app.ts (started by test/helpers/web-servers.ts, or by `next start`) and
// talk to it as real clients do: Node's http client, and raw sockets where the input must be
// what no well-behaved client sends. The same checks run on every runtime:
// - under Node's test runner, one file per Node-hosted server (test/web/*.test.ts, through
//   ./describe.ts), and for Next.js test/next/app.next.ts;
// - on Bun and Deno, through test/runtimes/web.ts and its own small runner.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { rawHead, type SendOptions, send, sendRaw } from '../helpers/client.js';
import type { WebServer } from '../helpers/web-servers.js';

export interface WebCheck {
  readonly name: string;
  run(server: WebServer): Promise<void>;
}

const checks: WebCheck[] = [];
/** Every check, in the order they run against one server. */
export const webChecks: readonly WebCheck[] = checks;

function check(name: string, run: WebCheck['run']): void {
  checks.push({ name, run });
}

/** How long a check waits for the server to record a line or a failure. */
const RECORD_TIMEOUT_MS = 5000;

async function recorded(server: WebServer, path: '/__lines' | '/__errors'): Promise<string[]> {
  const reply = await send(server, { path });
  assert.equal(reply.status, 200, `GET ${path}`);
  return JSON.parse(reply.text) as string[];
}

/**
 * What the server records after `count` entries already there: a line is written once the
 * response has been delivered, which the client may see first, so this asks until it comes.
 */
async function recordedAfter(
  server: WebServer,
  path: '/__lines' | '/__errors',
  count: number,
): Promise<string[]> {
  const until = Date.now() + RECORD_TIMEOUT_MS;
  for (;;) {
    const entries = await recorded(server, path);
    if (entries.length > count) return entries.slice(count);
    if (Date.now() > until) throw new Error(`nothing new at ${path} in ${RECORD_TIMEOUT_MS} ms`);
    await delay(25);
  }
}

function post(server: WebServer, path: string, body: SendOptions['body'], type?: string) {
  return send(server, {
    method: 'POST',
    path,
    ...(body === undefined ? {} : { body }),
    headers: type === undefined ? {} : { 'content-type': type },
  });
}

/** The reply is the problem document of a failure of `type`, with `status`. */
function assertFailure(
  reply: Awaited<ReturnType<typeof send>>,
  status: number,
  type: string,
): Record<string, unknown> {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['x-httpware-type'], type);
  assert.match(String(reply.headers['content-type']), /^application\/problem\+json/);
  const problem = JSON.parse(reply.text) as Record<string, unknown>;
  assert.equal(problem.status, status);
  return problem;
}

/** The server answers an ordinary request: what a fault before it must not have changed. */
async function assertStillServing(server: WebServer): Promise<void> {
  const reply = await post(server, '/text', 'still here', 'text/plain');
  assert.equal(reply.status, 200);
  assert.equal(reply.text, '"still here"');
}

const BODIES = [
  ['json', 'application/json', '{"a":[1,"é"]}', '{"a":[1,"é"]}'],
  ['urlencoded', 'application/x-www-form-urlencoded', 'a=1&b=%C3%A9', '{"a":"1","b":"é"}'],
  ['text', 'text/plain; charset=utf-8', 'hé', '"hé"'],
  ['raw', 'application/octet-stream', 'ab', 'buf:6162'],
] as const;

for (const [parser, type, body, expected] of BODIES) {
  check(`a ${parser} body is read`, async (server) => {
    const reply = await post(server, `/${parser}`, body, type);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.text, expected);
  });
}

// The prototype-key check looks in the text on Node and Deno, and in the bytes on Bun.
for (const [spelling, body, key] of [
  ['__proto__', '{"a":{"__proto__":{"isAdmin":true}}}', '__proto__'],
  [
    'constructor.prototype',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    'constructor.prototype',
  ],
  ['an escaped __proto__', '{"\\u005f_proto__":{"isAdmin":true}}', '__proto__'],
] as const) {
  check(`a JSON body with ${spelling} is 400 entity.prototype.forbidden`, async (server) => {
    const reply = await post(server, '/json', body, 'application/json');
    const problem = assertFailure(reply, 400, 'entity.prototype.forbidden');
    assert.match(String(problem.detail ?? reply.text), new RegExp(key.replace('.', '\\.')));
  });
}

check('a gzip body is read inflated', async (server) => {
  const reply = await send(server, {
    path: '/json',
    body: gzipSync('{"zipped":true}'),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.text, '{"zipped":true}');
});

check('a body that passes the schema is read as the schema gives it', async (server) => {
  const reply = await post(server, '/schema', '{"a":2}', 'application/json');
  assert.equal(reply.text, '{"doubled":4}');
});

check('a body that fails the schema is 422 entity.validation.failed', async (server) => {
  const reply = await post(server, '/schema', '{"a":"x"}', 'application/json');
  assertFailure(reply, 422, 'entity.validation.failed');
});

check('the 422 problem document names the issue, and nothing of the body', async (server) => {
  const reply = await post(server, '/schema', '{"a":"secret-value"}', 'application/json');
  const problem = assertFailure(reply, 422, 'entity.validation.failed');
  assert.equal(problem.title, 'Unprocessable Entity');
  // The path of the issue, with httpware's generic message (the validator's own one only on
  // request: `issueMessages: 'validator'`), and nothing of the value sent.
  assert.deepEqual(problem.issues, [{ path: ['a'], message: 'invalid value' }]);
  assert.doesNotMatch(reply.text, /secret-value|a must be a number/);
});

check('a body of another media type is 415 media.type.unsupported', async (server) => {
  assertFailure(await post(server, '/json', '{}', 'text/plain'), 415, 'media.type.unsupported');
});

check('a body with no Content-Type is 415 media.type.unsupported', async (server) => {
  assertFailure(await post(server, '/json', '{}'), 415, 'media.type.unsupported');
});

check('a Content-Length over the limit is 413 before the body is sent', async (server) => {
  // The head alone announces a megabyte: the answer must come without it.
  const reply = await sendRaw(
    server,
    [
      rawHead('POST', '/text?limit=10', {
        'content-type': 'text/plain',
        'content-length': 1e6,
        connection: 'close',
      }),
    ],
    { timeoutMs: 3000 },
  );
  assert.equal(reply.status, 413, reply.raw);
  assert.match(reply.raw, /x-httpware-type: entity\.too\.large/i);
});

check('a chunked body over the limit is 413 entity.too.large', async (server) => {
  const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
  const reply = await sendRaw(server, [
    rawHead('POST', '/text?limit=10', {
      'content-type': 'text/plain',
      'transfer-encoding': 'chunked',
      connection: 'close',
    }),
    chunk('x'.repeat(6)),
    chunk('x'.repeat(6)),
    '0\r\n\r\n',
  ]);
  assert.equal(reply.status, 413, reply.raw);
  assert.match(reply.raw, /x-httpware-type: entity\.too\.large/i);
});

check('a gzip body is limited by its inflated size', async (server) => {
  const reply = await send(server, {
    path: '/text?limit=100',
    body: gzipSync('x'.repeat(10_000)),
    headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
  });
  assertFailure(reply, 413, 'entity.too.large');
});

check('a Content-Length shorter than the body: the announced bytes are read', async (server) => {
  // What follows the announced bytes is the connection's next request: here a well-formed one,
  // so that each runtime answers both in turn rather than refusing a malformed rest.
  const reply = await sendRaw(server, [
    rawHead('POST', '/text', { 'content-type': 'text/plain', 'content-length': 4 }),
    `abcd${rawHead('GET', '/__errors', { connection: 'close' })}`,
  ]);
  assert.equal(reply.status, 200, reply.raw);
  // The first answer's body (chunked on some runtimes), then the second answer.
  assert.match(reply.raw, /\r\n(?:6\r\n)?"abcd"(?:\r\n0\r\n\r\n)?HTTP\/1\.1 200/);
  await assertStillServing(server);
});

check('a client that leaves mid-body leaves the server serving', async (server) => {
  await sendRaw(
    server,
    [
      rawHead('POST', '/json', { 'content-type': 'application/json', 'content-length': 1000 }),
      '{"a":',
    ],
    { abort: true, delayMs: 50 },
  );
  await assertStillServing(server);
});

check('a client that leaves mid-body fails the read with request.aborted', async (server) => {
  const before = (await recorded(server, '/__errors')).length;
  await sendRaw(
    server,
    [
      rawHead('POST', '/json', { 'content-type': 'application/json', 'content-length': 1000 }),
      '{"a":',
    ],
    { abort: true, delayMs: 50 },
  );
  assert.deepEqual(await recordedAfter(server, '/__errors', before), ['request.aborted']);
});

/** A logged request: POST /text?q=1 with a two-byte body, logged in `format`. */
async function loggedLine(server: WebServer, format: string): Promise<string> {
  const before = (await recorded(server, '/__lines')).length;
  const reply = await send(server, {
    path: '/text?q=1',
    body: 'hi',
    headers: { 'content-type': 'text/plain', 'x-log-format': format },
  });
  assert.equal(reply.status, 200, reply.text);
  const [line, ...more] = await recordedAfter(server, '/__lines', before);
  assert.deepEqual(more, [], 'one line per request, none for /__lines');
  return (line ?? '').replace(/\x1b\[\d+m/g, '');
}

check('each request is logged once, on its own line', async (server) => {
  assert.match(await loggedLine(server, 'tiny'), /POST \/text\?q=1 200/);
});

const DATE = String.raw`\[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]`;
// The address is what each runtime gives, `-` where it gives none (docs/web.md); a Web Request
// carries no HTTP version, so the version is whatever the wrapper writes.
const ADDRESS = String.raw`\S+`;
const REQUEST = String.raw`POST /text\?q=1 HTTP/[\d.]+`;
/** The shape of each predefined format's line for POST /text?q=1 answered 200, 4 bytes. */
const LINE_SHAPES: Readonly<Record<string, RegExp>> = {
  combined: new RegExp(`^${ADDRESS} - - ${DATE} "${REQUEST}" 200 4 "-" "-"$`),
  common: new RegExp(`^${ADDRESS} - - ${DATE} "${REQUEST}" 200 4$`),
  dev: /^POST \/text\?q=1 200 [\d.]+ ms - 4$/,
  short: new RegExp(`^${ADDRESS} - ${REQUEST} 200 4 - [\\d.]+ ms$`),
  tiny: /^POST \/text\?q=1 200 4 - [\d.]+ ms$/,
};

for (const [format, shape] of Object.entries(LINE_SHAPES)) {
  check(`the ${format} line`, async (server) => {
    assert.match(await loggedLine(server, format), shape);
  });
}

/** Where each JSON format puts the body's size (the rest of the fields checked are shared). */
const SIZE_FIELDS = { json: 'http.response.body.size', ecs: 'http.response.body.bytes' } as const;

for (const [format, sizeField] of Object.entries(SIZE_FIELDS)) {
  check(`the ${format} line's fields`, async (server) => {
    const record = JSON.parse(await loggedLine(server, format)) as Record<string, unknown>;
    assert.equal(record['http.request.method'], 'POST');
    assert.equal(record['url.path'], '/text');
    assert.equal(record['url.query'], 'q=1');
    assert.equal(record['http.response.status_code'], 200);
    assert.equal(record[sizeField], 4);
  });
}
