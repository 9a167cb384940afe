// The failure in the line: a request whose body a parser of ours rejected, or that the
// application marked with logger.recordError, carries error.type and error.message in the
// json and ecs lines and :error-type / :error-message in text formats; never a byte of the body.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import bodyParser from 'body-parser';
import { logger, parsers, recordError } from '../../src/index.js';
import { captureLines, frameworks, type SendOptions, send, startServer } from '../helpers/index.js';
import { firstLine, ownKeys } from '../helpers/logger.js';
import type { Middleware } from '../helpers/server.js';

type Format = Parameters<typeof logger>[0];

/** The line of one request through `logger(format)` then `after` (a parser, say). */
function lineFor(
  format: Format,
  request: SendOptions,
  options: {
    after?: readonly Middleware[];
    framework?: (typeof frameworks)[number];
    handler?: (req: IncomingMessage, res: ServerResponse) => void;
  } = {},
): Promise<string> {
  return firstLine((stream) => logger(format, { stream }), request, {
    ...(options.framework === undefined ? {} : { framework: options.framework }),
    ...(options.handler === undefined ? {} : { handler: options.handler }),
    after: options.after ?? [],
  });
}

const MARK = 'hunter2-S3CR3T';
const badJson: SendOptions = {
  method: 'POST',
  path: '/login',
  headers: { 'content-type': 'application/json' },
  body: `{"password":"${MARK}" x}`,
};

for (const framework of frameworks) {
  describe(`a body a parser rejected, in ${framework}`, () => {
    it('gives error.type and error.message in the json line', async () => {
      const line = await lineFor('json', badJson, { framework, after: [parsers.json()] });
      const entry = JSON.parse(line);
      assert.equal(entry['http.response.status_code'], 400);
      assert.equal(entry['error.type'], 'entity.parse.failed');
      assert.equal(entry['error.message'], 'invalid JSON at position 29');
    });
  });
}

describe('a body a parser rejected', () => {
  it('gives error.type and error.message in the ecs line', async () => {
    const line = await lineFor('ecs', badJson, { after: [parsers.json()] });
    const entry = JSON.parse(line);
    assert.equal(entry['error.type'], 'entity.parse.failed');
    assert.equal(entry['error.message'], 'invalid JSON at position 29');
  });

  it('gives :error-type and :error-message in a format string', async () => {
    const line = await lineFor(':status :error-type ":error-message"', badJson, {
      after: [parsers.json()],
    });
    assert.equal(line, '400 entity.parse.failed "invalid JSON at position 29"');
  });

  it('puts the error fields right after the status in the json line', async () => {
    const line = await lineFor('json', badJson, { after: [parsers.json()] });
    const keys = Object.keys(JSON.parse(line));
    const at = keys.indexOf('http.response.status_code');
    assert.deepEqual(keys.slice(at, at + 3), [
      'http.response.status_code',
      'error.type',
      'error.message',
    ]);
  });

  it('names the kind of an over-limit body with its registry message', async () => {
    const line = await lineFor(
      'json',
      { ...badJson, body: JSON.stringify({ a: 'x'.repeat(200) }) },
      { after: [parsers.json({ limit: 100 })] },
    );
    const entry = JSON.parse(line);
    assert.equal(entry['error.type'], 'entity.too.large');
    assert.equal(entry['error.message'], 'request entity too large');
  });

  it('leaves the error fields out of a request nothing failed', async () => {
    const line = await lineFor(
      'json',
      { ...badJson, body: '{"a":1}' },
      { after: [parsers.json()] },
    );
    const entry = JSON.parse(line);
    assert.equal('error.type' in entry, false);
    assert.equal('error.message' in entry, false);
  });

  it('writes - for :error-type when nothing failed', async () => {
    assert.equal(await lineFor(':error-type :error-message', {}), '- -');
  });
});

describe('the message of a parse failure', () => {
  // V8 quotes the body in JSON.parse's message ("... "{"password":"hunter2" x}" is not valid
  // JSON"), and strict mode's message names its first character.
  const bodies = {
    'a syntax error after a secret': `{"password":"${MARK}" x}`,
    'a body that is not JSON at all': `${MARK}`,
    'a body cut short': `{"password":"${MARK}`,
    'a bare string under strict mode': `"${MARK}"`,
  };
  for (const [label, body] of Object.entries(bodies)) {
    for (const format of ['json', 'ecs', ':error-type :error-message'] as const) {
      it(`holds no byte of the body: ${label}, ${format}`, async () => {
        const line = await lineFor(format, { ...badJson, body }, { after: [parsers.json()] });
        assert.match(line, /entity\.parse\.failed/);
        assert.doesNotMatch(line, /hunter|S3CR3T/);
      });
    }
  }

  it('holds no byte of the body when body-parser made the error and the application recorded it', async () => {
    const record: Middleware = (req, res, next) => {
      bodyParser.json()(req, res, (err?: unknown) => {
        if (err !== undefined) recordError(req, err);
        next(err);
      });
    };
    const line = await lineFor('json', badJson, { after: [record] });
    const entry = JSON.parse(line);
    assert.equal(entry['error.type'], 'entity.parse.failed');
    assert.equal(entry['error.message'], 'invalid JSON at position 29');
    assert.doesNotMatch(line, /S3CR3T/);
  });
});

/** A handler that records `err` for the request, then answers 500. */
const failingWith =
  (err: unknown) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    logger.recordError(req, err);
    res.statusCode = 500;
    res.end('failed');
  };

class QuotaExceeded extends Error {}

describe('logger.recordError', () => {
  const cases: ReadonlyArray<[string, unknown, string, string]> = [
    [
      'its type property',
      Object.assign(new Error('no such user'), { type: 'user.missing' }),
      'user.missing',
      'no such user',
    ],
    [
      'its code',
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      'ECONNRESET',
      'socket hang up',
    ],
    ['its class name', new QuotaExceeded('quota exceeded'), 'QuotaExceeded', 'quota exceeded'],
    [
      'the built-in class name',
      new TypeError('x is not a function'),
      'TypeError',
      'x is not a function',
    ],
    ['_OTHER for a thrown string', 'it broke', '_OTHER', 'it broke'],
  ];
  for (const [label, err, type, message] of cases) {
    it(`names the error by ${label}`, async () => {
      const line = await lineFor('json', {}, { handler: failingWith(err) });
      const entry = JSON.parse(line);
      assert.equal(entry['error.type'], type);
      assert.equal(entry['error.message'], message);
    });
  }

  it('reaches text formats through :error-type', async () => {
    const line = await lineFor(
      ':status :error-type',
      {},
      {
        handler: failingWith(new RangeError('out of range')),
      },
    );
    assert.equal(line, '500 RangeError');
  });

  it('keeps the latest error recorded', async () => {
    const line = await lineFor(
      ':error-type',
      {},
      {
        handler: (req, res) => {
          logger.recordError(req, new TypeError('first'));
          logger.recordError(req, new RangeError('second'));
          res.end();
        },
      },
    );
    assert.equal(line, 'RangeError');
  });

  it('forgets what was recorded when given null', async () => {
    const line = await lineFor(
      'json',
      {},
      {
        handler: (req, res) => {
          logger.recordError(req, new Error('recovered'));
          logger.recordError(req, null);
          res.end();
        },
      },
    );
    assert.equal('error.type' in JSON.parse(line), false);
  });

  it('adds nothing to the request', async () => {
    let before: string[] = [];
    let after: string[] = [];
    await lineFor(
      ':error-type',
      {},
      {
        handler: (req, res) => {
          before = ownKeys(req);
          logger.recordError(req, new Error('x'));
          after = ownKeys(req);
          res.end();
        },
      },
    );
    assert.deepEqual(after, before);
  });

  it('is a TypeError without a request', () => {
    for (const req of [undefined, null, 'req', 1]) {
      assert.throws(() => logger.recordError(req as never, new Error('x')), TypeError);
    }
  });

  it('is the named export recordError', () => {
    assert.equal(recordError, logger.recordError);
  });
});

describe('the errorMessage option', () => {
  const quoting = parsers.json({
    verify: (_req, _res, buf) => {
      throw new Error(`bad signature for ${buf.toString()}`);
    },
  });
  const signed: SendOptions = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"password":"${MARK}"}`,
  };

  it("writes httpware's text for a verify's error by default (errorMessage absent or null), and with 'safe'", async () => {
    for (const errorMessage of [undefined, null, 'safe'] as const) {
      const line = await firstLine(
        (stream) => logger(':error-type :error-message', { stream, errorMessage }),
        signed,
        { after: [quoting] },
      );
      assert.equal(line, 'entity.verify.failed verify refused the body');
    }
  });

  it("writes the error's own message with 'verbatim', in text and json lines", async () => {
    const expected = `bad signature for {"password":"${MARK}"}`;
    const text = await firstLine(
      (stream) => logger(':error-message', { stream, errorMessage: 'verbatim' }),
      signed,
      { after: [quoting] },
    );
    assert.equal(text, expected.replaceAll('"', '\\"'));
    const json = await firstLine(
      (stream) => logger('json', { stream, errorMessage: 'verbatim' }),
      signed,
      { after: [quoting] },
    );
    assert.equal(JSON.parse(json)['error.message'], expected);
  });

  it("writes a JSON parse error's own message with 'verbatim'", async () => {
    const line = await firstLine(
      (stream) => logger('json', { stream, errorMessage: 'verbatim' }),
      { ...badJson, body: `[${MARK}]` },
      { after: [parsers.json()] },
    );
    // V8: Unexpected token 'h', "[hunter2-S3CR3T]" is not valid JSON
    assert.match(JSON.parse(line)['error.message'], new RegExp(MARK));
  });

  it("is 'verbatim' for its own logger's lines only", async () => {
    const verbatim = captureLines();
    const safe = captureLines();
    const server = await startServer({
      middleware: [
        logger(':error-message', { stream: verbatim.stream, errorMessage: 'verbatim' }),
        logger(':error-message', { stream: safe.stream }),
        quoting,
      ],
    });
    try {
      await send(server, signed);
      const [[verbatimLine], [safeLine]] = await Promise.all([verbatim.waitFor(), safe.waitFor()]);
      assert.match(verbatimLine ?? '', new RegExp(MARK));
      assert.equal(safeLine, 'verify refused the body');
    } finally {
      await server.close();
    }
  });

  it('is a TypeError at creation for anything but safe or verbatim', () => {
    for (const errorMessage of ['Safe', 'raw', true, false, 0]) {
      assert.throws(() => logger('json', { errorMessage: errorMessage as never }), {
        name: 'TypeError',
        message: 'option errorMessage must be "safe" or "verbatim"',
      });
    }
  });
});
