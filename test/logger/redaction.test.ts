// Redaction by default: credential headers masked wherever a format logs them (text and JSON,
// request and response), secret query parameters masked in :query and the JSON presets; the
// `redact` option adds to the lists, replaces them, or turns masking off. URLs: redaction-urls.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, type SendOptions, send } from '../helpers/index.js';
import { firstLine, loggedServer } from '../helpers/logger.js';

type Options = Parameters<typeof logger>[1];

/** The line one request gives with `logger(format, { ...options, stream })`. */
function lineFor(
  format: Parameters<typeof logger>[0],
  request: SendOptions,
  options: Options = {},
  setHeaders: Record<string, string | string[]> = {},
): Promise<string> {
  return firstLine((stream) => logger(format, { ...options, stream }), request, {
    handler: (_req, res) => {
      for (const [name, value] of Object.entries(setHeaders)) res.setHeader(name, value);
      res.end('ok');
    },
  });
}

const SECRET_HEADERS = {
  authorization: 'Bearer abc.def.ghi',
  'proxy-authorization': 'Basic dG9iaTpmZXJyZXQ=',
  cookie: 'session=s3cr3t; theme=dark',
  'x-api-key': 'key-123',
  'x-auth-token': 'tok-456',
  'x-csrf-token': 'csrf-789',
  'x-xsrf-token': 'xsrf-000',
};

for (const framework of frameworks) {
  describe(`header redaction in text formats (${framework})`, () => {
    it(':req[...] masks every listed request header, keeping an auth scheme', async () => {
      const names = Object.keys(SECRET_HEADERS);
      const format = names.map((name) => `:req[${name}]`).join(' | ');
      const server = await loggedServer((stream) => logger(format, { stream }), { framework });
      try {
        await send(server, { headers: SECRET_HEADERS });
        assert.deepEqual(await server.capture.waitFor(1), [
          'Bearer [REDACTED] | Basic [REDACTED] | [REDACTED] | [REDACTED] | [REDACTED] | [REDACTED] | [REDACTED]',
        ]);
      } finally {
        await server.close();
      }
    });
  });
}

describe('header redaction', () => {
  it(':res[set-cookie] is masked', async () => {
    const line = await lineFor(':res[set-cookie]', {}, {}, { 'set-cookie': ['a=1', 'b=2'] });
    assert.equal(line, '[REDACTED]');
  });

  it('header names are matched case-insensitively', async () => {
    const line = await lineFor(':req[Authorization] :req[COOKIE]', {
      headers: { authorization: 'Token xyz', cookie: 'a=b' },
    });
    assert.equal(line, 'Token [REDACTED] [REDACTED]');
  });

  it('an authorization value without a scheme is masked whole', async () => {
    const line = await lineFor(':req[authorization]', { headers: { authorization: 'abcdef' } });
    assert.equal(line, '[REDACTED]');
  });

  it('other headers are logged as they are', async () => {
    const line = await lineFor(
      ':req[accept] :res[content-type]',
      {
        headers: { accept: 'text/html' },
      },
      {},
      { 'content-type': 'text/plain' },
    );
    assert.equal(line, 'text/html text/plain');
  });

  it('a format function reading tokens.req gets the masked value', async () => {
    const line = await lineFor((tokens, req, res) => String(tokens.req(req, res, 'cookie')), {
      headers: { cookie: 'a=b' },
    });
    assert.equal(line, '[REDACTED]');
  });

  it('JSON fields reading listed headers are masked', async () => {
    const line = await lineFor(
      logger.json({ auth: ':req[authorization]', out: ':res[set-cookie]' }),
      { headers: { authorization: 'Bearer abc' } },
      {},
      { 'set-cookie': 'sid=1' },
    );
    assert.deepEqual(JSON.parse(line), { auth: 'Bearer [REDACTED]', out: '[REDACTED]' });
  });
});

describe('query redaction', () => {
  it('the json preset masks secret query parameters, keeping their keys', async () => {
    const line = await lineFor('json', {
      path:
        '/cb?state=ok&access_token=a&id_token=b&refresh_token=c&token=d&password=e&secret=f' +
        '&client_secret=g&api_key=h&apikey=i&X-Amz-Signature=j&X-Amz-Credential=k' +
        '&X-Amz-Security-Token=l&X-Goog-Signature=m&sig=n&signature=o&code=q&key=r&jwt=s' +
        '&session_id=t&auth=u&AWSAccessKeyId=v&page=p',
    });
    assert.equal(
      JSON.parse(line)['url.query'],
      'state=ok&access_token=REDACTED&id_token=REDACTED&refresh_token=REDACTED&token=REDACTED' +
        '&password=REDACTED&secret=REDACTED&client_secret=REDACTED&api_key=REDACTED' +
        '&apikey=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED' +
        '&X-Amz-Security-Token=REDACTED&X-Goog-Signature=REDACTED&sig=REDACTED' +
        '&signature=REDACTED&code=REDACTED&key=REDACTED&jwt=REDACTED&session_id=REDACTED' +
        '&auth=REDACTED&AWSAccessKeyId=REDACTED&page=p',
    );
  });

  it('keys are matched case-insensitively and after percent-decoding', async () => {
    const line = await lineFor('json', { path: '/x?TOKEN=a&%74oken=b&x-amz-signature=c' });
    assert.equal(
      JSON.parse(line)['url.query'],
      'TOKEN=REDACTED&%74oken=REDACTED&x-amz-signature=REDACTED',
    );
  });

  it('a parameter whose name only contains a listed one is kept', async () => {
    const line = await lineFor('json', { path: '/x?tokens=1&my_token=2&token' });
    assert.equal(JSON.parse(line)['url.query'], 'tokens=1&my_token=2&token');
  });

  it('the msg field holds the path only, never the query', async () => {
    const line = await lineFor('json', { path: '/x?token=abc' });
    assert.doesNotMatch(line, /abc/);
  });

  it(':url and :query in a format string are both masked', async () => {
    const line = await lineFor(':url :query', { path: '/x?token=abc' });
    assert.equal(line, '/x?token=REDACTED token=REDACTED');
  });

  it('a listed name right after a second ? is masked (URLSearchParams drops a leading ?)', async () => {
    const text = await lineFor(':url :query', { path: '/x??token=abc' });
    assert.equal(text, '/x??token=REDACTED ?token=REDACTED');
    const json = await lineFor('json', { path: '/x??token=abc' });
    assert.equal(JSON.parse(json)['url.query'], '?token=REDACTED');
  });
});

describe('the redact option', () => {
  it('headers: a list adds to the default list', async () => {
    const line = await lineFor(
      ':req[authorization] :req[x-session]',
      { headers: { authorization: 'Bearer a', 'x-session': 's1' } },
      { redact: { headers: ['X-Session'] } },
    );
    assert.equal(line, 'Bearer [REDACTED] [REDACTED]');
  });

  it('query: a list adds to the default list', async () => {
    const line = await lineFor(
      'json',
      { path: '/x?token=a&otp=123&page=2' },
      { redact: { query: ['otp'] } },
    );
    assert.equal(JSON.parse(line)['url.query'], 'token=REDACTED&otp=REDACTED&page=2');
  });

  it('query: a function given the default list replaces it', async () => {
    let given: readonly string[] = [];
    const line = await lineFor(
      ':url',
      { path: '/x?code=US&key=k1&token=a' },
      {
        redact: {
          query: (defaults) => {
            given = defaults;
            return defaults.filter((name) => name !== 'code' && name !== 'key');
          },
        },
      },
    );
    assert.equal(line, '/x?code=US&key=k1&token=REDACTED');
    assert.deepEqual(given, logger.redactDefaults.query);
  });

  it('headers: a function replaces the header list', async () => {
    const line = await lineFor(
      ':req[authorization] :req[x-session]',
      { headers: { authorization: 'Bearer a', 'x-session': 's1' } },
      { redact: { headers: () => ['x-session'] } },
    );
    assert.equal(line, 'Bearer a [REDACTED]');
  });

  it('a list left out keeps its default', async () => {
    const line = await lineFor(
      ':req[cookie] :query',
      { path: '/x?token=a&otp=1', headers: { cookie: 'a=b' } },
      { redact: { query: () => ['otp'] } },
    );
    assert.equal(line, '[REDACTED] token=a&otp=REDACTED');
  });

  it('false logs headers and query as they are, in text and JSON', async () => {
    const request = { path: '/x?token=a', headers: { authorization: 'Bearer a' } };
    assert.equal(
      await lineFor(':req[authorization] :query', request, { redact: false }),
      'Bearer a token=a',
    );
    const entry = JSON.parse(
      await lineFor(logger.json({ a: ':req[authorization]', q: ':query' }), request, {
        redact: false,
      }),
    );
    assert.deepEqual(entry, { a: 'Bearer a', q: 'token=a' });
  });

  it('applies to the json preset', async () => {
    const line = await lineFor('json', { path: '/x?token=a' }, { redact: false });
    assert.equal(JSON.parse(line)['url.query'], 'token=a');
  });

  it('a bad value is a TypeError at creation', () => {
    for (const redact of [
      'yes',
      1,
      ['authorization'],
      { headers: 'cookie' },
      { query: [1] },
      { query: [''] },
      { query: () => 'otp' },
      { headers: () => [3] },
    ]) {
      assert.throws(() => logger('json', { redact: redact as never }), TypeError);
    }
  });

  it('an unknown key is a TypeError at creation, so defaults are never dropped by a typo', () => {
    for (const redact of [{ defaults: false }, { querys: ['otp'] }, { header: ['x-a'] }]) {
      assert.throws(() => logger('json', { redact: redact as never }), /option redact has no/);
    }
  });
});
