import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import {
  escapeLikeMorgan,
  hostileSetup,
  quotedFields,
  rawControl,
  runChild,
  type Subject,
} from '../helpers/hostile.js';
import {
  captureLines,
  type Middleware,
  rawHead,
  type SendOptions,
  send,
  sendRaw,
  startServer,
} from '../helpers/index.js';

const hostile = hostileSetup();

// The two attacks that have hit morgan: code injection through a format string compiled into
// code (morgan builds a `new Function` from it), and log-line forgery through any value a
// client controls. Set HOSTILE_IMPL to run these against another implementation (README,
// "Security").

/** Serves one request through `logger(format)` and returns the one line it wrote. */
async function lineFor(
  format: string | Parameters<Subject['logger']>[0],
  request: SendOptions | { raw: string | Buffer },
  before: readonly Middleware[] = [],
  expectedLines = 1,
): Promise<string> {
  const capture = captureLines();
  const server = await startServer({
    middleware: [...before, hostile.subject.logger(format, { stream: capture.stream })],
  });
  try {
    if ('raw' in request) await sendRaw(server, [request.raw]);
    else await send(server, request);
    const lines = await capture.waitFor(expectedLines);
    // Give a second (forged) line the chance to appear before counting.
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(lines.length, expectedLines, `exactly one line: ${JSON.stringify(lines)}`);
    assert.deepEqual(hostile.uncaught.take(), []);
    return lines.join('\n');
  } finally {
    await server.close();
  }
}

describe('code injection through a format string', () => {
  const flag = '__httpwarePwned';
  const payloads = [
    `:method" + (globalThis.${flag} = 1) + "`,
    `:method\\" + (globalThis.${flag} = 1) //`,
    `:method\\\\" + (globalThis.${flag} = 1) //`,
    `:method'); globalThis.${flag} = 1; ('`,
    `:method\` + (globalThis.${flag} = 1) + \``,
    `:method \${globalThis.${flag} = 1}`,
    `:method\n(globalThis.${flag} = 1)\n`,
    `:method\u2028(globalThis.${flag} = 1)//`,
    `:method */ globalThis.${flag} = 1 /*`,
    `:req[x"]) + (globalThis.${flag} = 1) + (["]`,
    `:req[\\"]) + (globalThis.${flag} = 1) //]`,
    `:date[" + (globalThis.${flag} = 1) + "]`,
  ];
  for (const payload of payloads) {
    test(`format ${JSON.stringify(payload)} runs no code and is written as literal text`, async () => {
      const g = globalThis as Record<string, unknown>;
      delete g[flag];
      let line: string;
      // Literal text is written as it is (morgan does not escape it): a newline in the format
      // itself is the application's own choice, so it gives more than one line.
      const newlines = payload.split('\n').length - 1;
      try {
        line = await lineFor(payload, { path: '/' }, [], newlines + 1);
      } catch (err) {
        // Refusing the format outright is also safe, as long as it is a TypeError at creation.
        assert.ok(err instanceof TypeError, String(err));
        return;
      }
      assert.equal(g[flag], undefined, 'the payload ran');
      // The literal text around the tokens is kept verbatim (unless it is a token argument).
      if (!/\[[^\]]*globalThis/.test(payload))
        assert.ok(line.includes(`globalThis.${flag} = 1`), line);
      if (payload.startsWith(':method')) assert.ok(line.startsWith('GET'), line);
    });
  }

  test('a format registered with logger.format and holding a payload runs no code', async () => {
    const g = globalThis as Record<string, unknown>;
    delete g[flag];
    hostile.subject.logger.format('hostile-injection', `:method\\" + (globalThis.${flag} = 1) //`);
    await lineFor('hostile-injection', { path: '/' });
    assert.equal(g[flag], undefined);
  });

  test('compile() of a payload returns a function that runs no code', () => {
    const g = globalThis as Record<string, unknown>;
    delete g[flag];
    for (const payload of payloads) {
      const fn = hostile.subject.logger.compile(payload);
      assert.equal(typeof fn, 'function');
      assert.equal(g[flag], undefined, payload);
    }
  });

  test('the logger works under node --disallow-code-generation-from-strings', async () => {
    const dir = join(tmpdir(), `httpware-hostile-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'no-eval.mts');
    const impl =
      process.env.HOSTILE_IMPL ?? new URL('../../src/index.ts', import.meta.url).pathname;
    writeFileSync(
      file,
      `
import http from 'node:http';
import { PassThrough } from 'node:stream';
const { logger } = await import(${JSON.stringify(impl)});
const out = new PassThrough();
let text = '';
out.on('data', (c) => { text += c; });
const log = logger(':method :url :status :res[content-length] - :response-time ms');
const log2 = logger('combined', { stream: out });
const server = http.createServer((req, res) => log2(req, res, () => log(req, res, () => res.end('ok'))));
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  await fetch('http://127.0.0.1:' + port + '/probe');
  setTimeout(() => { console.log(JSON.stringify({ text })); server.close(); }, 50);
});
`,
    );
    const result = await runChild(file, {
      nodeArgs: ['--disallow-code-generation-from-strings'],
      timeoutMs: 20_000,
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /GET \/probe HTTP\/1\.1/);
  });
});

// A format made only of quoted fields, so a line can be split and each field unescaped.
const fieldsFormat =
  '":method :url" ":remote-user" ":referrer" ":user-agent" ":req[x-forwarded-for]" ":hostile-value"';
const FIELDS = 6;
let hostileValue = '-';

/** Values that forge a line, colour a terminal or hide text, each through every channel. */
const forgeries: Record<string, string> = {
  'CR LF and a fake line':
    'x\r\n127.0.0.1 - admin [01/Jan/2030:00:00:00 +0000] "GET /admin HTTP/1.1" 200 -',
  'a lone LF': 'a\nb',
  'ESC colour sequences': '\u001b[31mred\u001b[0m\u001b[2K\u001b[1A',
  'C1 controls (NEL, CSI)': 'a\u0085b\u009b31mc\u0080\u009f',
  'U+2028 and U+2029': 'a\u2028b\u2029c',
  'DEL and NUL': 'a\u007fb\u0000c',
  'double quotes closing the field': 'a" "injected" "b',
  'a backslash before a quote': 'a\\" 200 -',
  'backspaces hiding text': 'secret\b\b\b\b\b\bpublic',
  'form feed, tab, vertical tab': 'a\fb\tc\u000bd',
};

describe('log-line forgery', () => {
  before(() => {
    hostile.subject.logger.token('hostile-value', () => hostileValue);
  });

  for (const [name, value] of Object.entries(forgeries)) {
    test(`${name} in a custom token value is escaped: one line, the field round-trips`, async () => {
      hostileValue = value;
      const line = await lineFor(fieldsFormat, { path: '/' });
      const fields = quotedFields(line, FIELDS);
      assert.equal(fields[5], value);
      assert.ok(line.endsWith(`"${escapeLikeMorgan(value)}"`), line);
    });

    test(`${name} in a Basic-auth user name is escaped`, async () => {
      hostileValue = '-';
      const user = value.replaceAll(':', ';');
      const line = await lineFor(fieldsFormat, {
        path: '/',
        headers: { authorization: `Basic ${Buffer.from(`${user}:pw`).toString('base64')}` },
      });
      assert.equal(quotedFields(line, FIELDS)[1], user);
    });

    test(`${name} in a URL the application decoded before logging is escaped`, async () => {
      hostileValue = '-';
      const decode: Middleware = (req, _res, next) => {
        req.url = decodeURIComponent(req.url ?? '/');
        next();
      };
      const line = await lineFor(fieldsFormat, { path: `/p/${encodeURIComponent(value)}` }, [
        decode,
      ]);
      assert.equal(quotedFields(line, FIELDS)[0], `GET /p/${value}`);
    });
  }

  test('an array a custom token returns (Express req.query.x for ?x=a%0Ab&x=c) is escaped', async () => {
    // `logger.token('x', (req) => req.query.x)` is common; Express makes x an array when the
    // parameter repeats, and the array's string form carries the client's raw characters.
    hostile.subject.logger.token(
      'hostile-array',
      () => ['a\r\n127.0.0.1 - forged', 'b"c'] as never,
    );
    const capture = captureLines();
    const server = await startServer({
      middleware: [hostile.subject.logger('":hostile-array"', { stream: capture.stream })],
    });
    try {
      await send(server, { path: '/' });
      const lines = await capture.waitFor(1);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(lines.length, 1, `exactly one line: ${JSON.stringify(lines)}`);
      assert.equal(quotedFields(lines[0]!, 1)[0], 'a\r\n127.0.0.1 - forged,b"c');
    } finally {
      await server.close();
    }
  });

  test('a raw " in the URL is escaped', async () => {
    hostileValue = '-';
    const line = await lineFor(fieldsFormat, {
      raw: rawHead('GET', '/a"b"200"x', { connection: 'close' }),
    });
    assert.equal(quotedFields(line, FIELDS)[0], 'GET /a"b"200"x');
  });

  test('a raw " in the path and the query leaves a json line one valid object', async () => {
    const line = await lineFor('json', {
      raw: rawHead('GET', '/a"b?q="x', { connection: 'close' }),
    });
    const fields = JSON.parse(line);
    assert.equal(fields['url.path'], '/a"b');
    assert.equal(fields['url.query'], 'q="x');
  });

  test('C1 bytes, quotes and backslashes in Referer, User-Agent and X-Forwarded-For are escaped', async () => {
    hostileValue = '-';
    const value = 'a\u0085b\u009b31m"c\\d\te';
    const head = Buffer.from(
      rawHead('GET', '/', {
        referer: value,
        'user-agent': value,
        'x-forwarded-for': value,
        connection: 'close',
      }),
      'latin1',
    );
    const line = await lineFor(fieldsFormat, { raw: head });
    const fields = quotedFields(line, FIELDS);
    assert.deepEqual(fields.slice(2, 5), [value, value, value]);
  });

  test('the combined format keeps its shape whatever the user agent, referrer and user hold', async () => {
    hostileValue = '-';
    const evil = 'x" 200 1 "-" "y\r\n1.2.3.4 - - [x] "GET / HTTP/1.1" 200 -\u2028';
    const head = Buffer.from(
      rawHead('GET', '/', {
        referer: 'r" "\u0085',
        'user-agent': 'u" "\u009b',
        authorization: `Basic ${Buffer.from(`${evil}:pw`).toString('base64')}`,
        connection: 'close',
      }),
      'latin1',
    );
    const line = await lineFor('combined', { raw: head });
    assert.doesNotMatch(line, rawControl);
    const combined =
      /^\S+ - ((?:[^"\\ ]|\\.|[ "])*?) \[[^\]]+\] "((?:[^"\\]|\\.)*)" \d{3} \S+ "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"$/;
    const match = combined.exec(line);
    assert.ok(match, line);
    assert.equal(JSON.parse(`"${match[3]}"`), 'r" "\u0085');
    assert.equal(JSON.parse(`"${match[4]}"`), 'u" "\u009b');
  });

  test('a format function reading tokens gets escaped values', async () => {
    hostileValue = forgeries['CR LF and a fake line']!;
    const line = await lineFor(
      (tokens, req, res) =>
        `"${tokens['hostile-value']?.(req, res)}" "${tokens['user-agent']?.(req, res)}"`,
      {
        raw: Buffer.from(
          rawHead('GET', '/', { 'user-agent': 'a"\u0085', connection: 'close' }),
          'latin1',
        ),
      },
    );
    const fields = quotedFields(line, 2);
    assert.deepEqual(fields, [hostileValue, 'a"\u0085']);
  });
});

describe('credentials in log lines', () => {
  // A combined line is read by more people, and kept longer, than the credentials a client
  // puts in a URL are meant to be: an OAuth code, a token, a signed URL's signature.
  test('an OAuth code and a token in the URL and the Referer of a combined line are masked', async () => {
    const head = rawHead('GET', '/callback?code=AUTHCODE1&state=s&X-Amz-Signature=SIG2', {
      referer: 'https://app.example/?access_token[]=TOKEN3',
      connection: 'close',
    });
    const line = await lineFor('combined', { raw: head });
    assert.doesNotMatch(line, /AUTHCODE1|SIG2|TOKEN3/);
    assert.match(line, /"GET \/callback\?code=REDACTED&state=s&X-Amz-Signature=REDACTED HTTP/);
  });

  test('the userinfo of an absolute-form request target is masked', async () => {
    const head = rawHead('GET', 'http://ann:PASSWORD4@example.com/p', { connection: 'close' });
    const line = await lineFor('common', { raw: head });
    assert.doesNotMatch(line, /ann|PASSWORD4/);
  });

  test('the fragment of a Location header is masked', async () => {
    const capture = captureLines();
    const server = await startServer({
      middleware: [hostile.subject.logger(':status :res[location]', { stream: capture.stream })],
      handler: (_req, res) => {
        res.writeHead(302, { location: 'https://client.example/cb#access_token=TOKEN5' }).end();
      },
    });
    try {
      await send(server);
      const [line] = await capture.waitFor(1);
      assert.equal(line, '302 https://client.example/cb#REDACTED');
    } finally {
      await server.close();
    }
  });
});
