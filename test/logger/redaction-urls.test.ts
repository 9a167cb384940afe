// One secret policy in every format: the URLs a line carries (:url, :referrer, the Referer and
// Location headers) are masked in text formats as :query is in JSON lines: listed parameters
// (bracketed names too), the userinfo of an absolute URL, a Location's fragment. A URL with no
// secret is written as morgan writes it; `redact: false` gives morgan's lines back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger, redactDefaults, type TokenFn } from '../../src/index.js';
import { builtinTokens } from '../../src/logger/core/tokens.js';
import { frameworks, rawHead, type SendOptions, send, sendRaw } from '../helpers/index.js';
import { firstLine, loggedServer } from '../helpers/logger.js';

type Options = Parameters<typeof logger>[1];

function lineFor(
  format: Parameters<typeof logger>[0],
  request: SendOptions,
  options: Options = {},
  setHeaders: Record<string, string> = {},
  framework: (typeof frameworks)[number] = 'http',
): Promise<string> {
  return firstLine((stream) => logger(format, { ...options, stream }), request, {
    framework,
    handler: (_req, res) => {
      for (const [name, value] of Object.entries(setHeaders)) res.setHeader(name, value);
      res.end('ok');
    },
  });
}

/** The line of a raw request head, for request targets a client library would not send. */
async function rawLineFor(format: string, target: string, options: Options = {}) {
  const server = await loggedServer((stream) => logger(format, { ...options, stream }));
  try {
    await sendRaw(server, [rawHead('GET', target, { host: 'example.com', connection: 'close' })]);
    const [line] = await server.capture.waitFor(1);
    return line as string;
  } finally {
    await server.close();
  }
}

const secretUrl = '/cb?state=s1&code=c2&access_token=t3';
const masked = '/cb?state=s1&code=REDACTED&access_token=REDACTED';

for (const framework of frameworks) {
  describe(`:url in the predefined text formats, in ${framework}`, () => {
    for (const format of ['combined', 'common', 'short', 'tiny', 'dev'] as const) {
      it(`${format} masks listed query parameters, keeping their keys`, async () => {
        const line = await lineFor(format, { path: secretUrl }, {}, {}, framework);
        assert.ok(line.includes(` ${masked} `), line);
        assert.doesNotMatch(line, /c2|t3/);
      });
    }
  });
}

describe(':url and :referrer', () => {
  it(':referrer in combined masks listed parameters', async () => {
    const line = await lineFor('combined', {
      headers: { referer: 'https://app.example/cb?session_id=abc&lang=en' },
    });
    assert.ok(line.includes('"https://app.example/cb?session_id=REDACTED&lang=en"'), line);
  });

  it(':referrer masks the userinfo of an absolute URL', async () => {
    const line = await lineFor(':referrer', {
      headers: { referer: 'https://ann:pa55@app.example/x' },
    });
    assert.equal(line, 'https://REDACTED:REDACTED@app.example/x');
  });

  it('a user name alone in userinfo is masked too', async () => {
    const line = await lineFor(':referrer', {
      headers: { referer: 'https://ghp_token@github.com/o/r' },
    });
    assert.equal(line, 'https://REDACTED@github.com/o/r');
  });

  it(':url masks the userinfo of an absolute-form request target', async () => {
    const line = await rawLineFor(':url', 'http://ann:pa55@example.com/p?key=k&q=1');
    assert.equal(line, 'http://REDACTED:REDACTED@example.com/p?key=REDACTED&q=1');
  });

  it(':path of an absolute-form target is its path alone', async () => {
    const line = await rawLineFor(':path', 'http://ann:pa55@example.com/p?key=k');
    assert.equal(line, '/p');
  });

  it('an "@" in the path of an absolute URL is not userinfo', async () => {
    const line = await rawLineFor(':url', 'http://example.com/users/@ann?x=1');
    assert.equal(line, 'http://example.com/users/@ann?x=1');
  });

  it('a URL without a secret is written as sent', async () => {
    const url = '/search?q=a%20b&page=2&sort=-date&tokens=3&my_token=4';
    assert.equal(await lineFor(':url', { path: url }), url);
  });

  it('a "?" inside a fragment starts no query, and the fragment\'s own query is masked', async () => {
    const line = await rawLineFor(':url', '/p#frag?token=t&page=2');
    assert.equal(line, '/p#frag?token=REDACTED&page=2');
  });

  it('a fragment after the query is kept, the query masked', async () => {
    const line = await rawLineFor(':url', '/p?token=t#top');
    assert.equal(line, '/p?token=REDACTED#top');
  });

  it('a format function reading tokens.url and tokens.referrer gets them masked', async () => {
    const line = await lineFor(
      (tokens, req, res) => `${tokens.url(req, res)} ${tokens.referrer(req, res)}`,
      {
        path: '/x?jwt=e30',
        headers: { referer: 'http://h/?auth=a' },
      },
    );
    assert.equal(line, '/x?jwt=REDACTED http://h/?auth=REDACTED');
  });

  it(':req[referer] is masked as :referrer is', async () => {
    const line = await lineFor(':req[referer]', { headers: { referer: 'http://h/?token=a' } });
    assert.equal(line, 'http://h/?token=REDACTED');
  });
});

describe('bracketed parameter names', () => {
  const cases: ReadonlyArray<[string, string]> = [
    ['access_token[]=a&access_token[]=b', 'access_token[]=REDACTED&access_token[]=REDACTED'],
    ['user[password]=p&user[name]=ann', 'user[password]=REDACTED&user[name]=ann'],
    ['a[b][token]=t', 'a[b][token]=REDACTED'],
    ['token[0]=t', 'token[0]=REDACTED'],
    // As an HTML form sends brackets, percent-encoded.
    ['user%5Bpassword%5D=p', 'user%5Bpassword%5D=REDACTED'],
    ['filter[name]=tokenish&x[tokens]=1', 'filter[name]=tokenish&x[tokens]=1'],
  ];
  for (const [query, expected] of cases) {
    it(`${query} gives ${expected}`, async () => {
      assert.equal(await lineFor(':url', { path: `/f?${query}` }), `/f?${expected}`);
    });
  }
});

describe('URL-valued response headers', () => {
  it(':res[location] masks listed parameters and the whole fragment', async () => {
    const line = await lineFor(
      ':res[location]',
      {},
      {},
      { location: 'https://app.example/cb?code=c1&state=s#access_token=t&token_type=bearer' },
    );
    assert.equal(line, 'https://app.example/cb?code=REDACTED&state=s#REDACTED');
  });

  it('a Location without a fragment or a secret is written as set', async () => {
    const line = await lineFor(':res[location]', {}, {}, { location: '/next?page=2' });
    assert.equal(line, '/next?page=2');
  });
});

describe('redact: false', () => {
  for (const format of ['combined', 'tiny'] as const) {
    it(`gives morgan's raw :url back in ${format}`, async () => {
      const line = await lineFor(format, { path: secretUrl }, { redact: false });
      assert.ok(line.includes(` ${secretUrl} `), line);
    });
  }

  it('gives the raw referrer, userinfo and Location back', async () => {
    const line = await lineFor(
      ':referrer :res[location]',
      { headers: { referer: 'https://a:b@h/?token=t' } },
      { redact: false },
      { location: '/cb#access_token=t' },
    );
    assert.equal(line, 'https://a:b@h/?token=t /cb#access_token=t');
  });
});

describe('a logger.json format wrapped in a format function', () => {
  const inner = logger.json({ query: ':query', url: ':url' });

  it('follows the logger redact option', async () => {
    const line = await lineFor(
      (tokens, req, res) => inner(tokens, req, res),
      { path: '/x?otp=1&token=2' },
      {
        redact: { query: ['otp'] },
      },
    );
    assert.deepEqual(JSON.parse(line), {
      query: 'otp=REDACTED&token=REDACTED',
      url: '/x?otp=REDACTED&token=REDACTED',
    });
  });

  it('masks nothing under redact: false', async () => {
    const line = await lineFor(
      (tokens, req, res) => inner(tokens, req, res),
      { path: '/x?token=2' },
      {
        redact: false,
      },
    );
    assert.deepEqual(JSON.parse(line), { query: 'token=2', url: '/x?token=2' });
  });

  it('masks the defaults otherwise', async () => {
    const line = await lineFor((tokens, req, res) => inner(tokens, req, res), {
      path: '/x?token=2',
    });
    assert.deepEqual(JSON.parse(line), { query: 'token=REDACTED', url: '/x?token=REDACTED' });
  });
});

describe('a compiled format called from a format function', () => {
  it('follows the logger redact option', async () => {
    const line = await lineFor(
      (tokens, req, res) => logger.compile(':url')(tokens, req, res),
      { path: '/x?token=2' },
      { redact: false },
    );
    assert.equal(line, '/x?token=2');
  });
});

describe('a built-in token the application replaces', () => {
  it('is used by a logger with its own redact option, even when replaced later', async () => {
    const server = await loggedServer((stream) =>
      logger(':url', { stream, redact: { query: ['otp'] } }),
    );
    try {
      logger.token('url', () => 'replaced');
      await send(server, { path: '/x?otp=1' });
      assert.deepEqual(await server.capture.waitFor(1), ['replaced']);
    } finally {
      logger.token('url', builtinTokens.url as TokenFn);
      await server.close();
    }
  });
});

describe('the default lists', () => {
  it('are logger.redactDefaults and the named export redactDefaults, frozen', () => {
    assert.equal(redactDefaults, logger.redactDefaults);
    assert.ok(Object.isFrozen(redactDefaults));
    assert.ok(Object.isFrozen(redactDefaults.headers));
    assert.ok(Object.isFrozen(redactDefaults.query));
  });

  it('mask every listed header in :req[...]', async () => {
    const names = redactDefaults.headers.filter((name) => name !== 'set-cookie');
    const format = names.map((name) => `:req[${name}]`).join(' ');
    const headers = Object.fromEntries(names.map((name) => [name, 'v4lue']));
    const line = await lineFor(format, { headers });
    assert.doesNotMatch(line, /v4lue/);
  });

  it('mask every listed parameter in :url', async () => {
    const query = redactDefaults.query.map((name) => `${name}=v4lue`).join('&');
    const line = await lineFor(':url', { path: `/x?${query}` });
    assert.doesNotMatch(line, /v4lue/);
  });
});
