// Hostile request bodies against the logger's `body` option: whatever a client sends, the
// body fields never exceed their cap, never show a secret-named key, never follow or pollute
// a prototype, and never forge or break a line.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hostileSetup, rawControl } from '../helpers/hostile.js';
import { type SendOptions, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';
import type { Middleware } from '../helpers/server.js';

const hostile = hostileSetup();

/** The json line of one request with a JSON body through `logger('json', { body })`. */
async function lineFor(
  body: { fields: string[]; maxBytes?: number; maxDepth?: number },
  request: SendOptions,
  before: readonly Middleware[] = [],
  after?: readonly Middleware[],
): Promise<{ raw: string; fields: unknown }> {
  const { logger, parsers } = hostile.subject;
  const server = await loggedServer((stream) => logger('json', { stream, body }), {
    before,
    after: after ?? [parsers.json({ limit: '4mb' })],
  });
  try {
    await send(server, request);
    const [raw] = await server.capture.waitFor(1);
    return { raw: raw as string, fields: JSON.parse(raw as string)['http.request.body.fields'] };
  } finally {
    await server.close();
  }
}

function jsonText(text: string): SendOptions {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: text };
}

/** The UTF-8 size of the body fields as the line wrote them. */
function fieldBytes(raw: string): number {
  const start = raw.indexOf('"http.request.body.fields":');
  assert.notEqual(start, -1, 'the line has body fields');
  return Buffer.byteLength(JSON.stringify(JSON.parse(raw)['http.request.body.fields']));
}

describe('body fields: size', () => {
  test('a huge string is cut to the marker and the fields stay within maxBytes', async () => {
    const { raw, fields } = await lineFor(
      { fields: ['a'], maxBytes: 256 },
      jsonText(JSON.stringify({ a: 'é'.repeat(1_000_000) })),
    );
    assert.deepEqual(fields, { a: '[TRUNCATED]' });
    assert.ok(fieldBytes(raw) <= 256);
  });

  test('multi-byte text just under the cap in UTF-16 units is still held to the bytes', async () => {
    // 100 three-byte characters: 102 units, 302 bytes quoted.
    const { raw, fields } = await lineFor(
      { fields: ['a'], maxBytes: 200 },
      jsonText(JSON.stringify({ a: '€'.repeat(100) })),
    );
    assert.deepEqual(fields, { a: '[TRUNCATED]' });
    assert.ok(fieldBytes(raw) <= 200);
  });

  test('a wide array stays within maxBytes', async () => {
    const { raw } = await lineFor(
      { fields: ['items', 'after'], maxBytes: 512 },
      jsonText(JSON.stringify({ items: Array.from({ length: 50_000 }, (_, i) => i), after: 1 })),
    );
    assert.ok(fieldBytes(raw) <= 512);
  });

  test('the walk stops at the cap: an entry far past it is never read', async () => {
    let read = false;
    const items: unknown[] = new Array(10_000).fill(0);
    Object.defineProperty(items, 9_999, {
      get() {
        read = true;
        return 0;
      },
    });
    const wide: Middleware = (req, _res, next) => {
      (req as { body?: unknown }).body = { items };
      next();
    };
    const { fields } = await lineFor({ fields: ['items'], maxBytes: 64 }, {}, [], [wide]);
    assert.deepEqual(fields, { items: '[TRUNCATED]' });
    assert.equal(read, false);
  });

  test('a deep body is written to maxDepth and no further', async () => {
    const deep = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
    const { fields } = await lineFor({ fields: ['a'], maxDepth: 2 }, jsonText(deep));
    assert.deepEqual(fields, { a: { a: { a: '[Object]' } } });
  });
});

describe('body fields: secrets', () => {
  const secretKeys = [
    'password',
    'Password',
    'newPassword',
    'client_secret',
    'refreshToken',
    'access-token',
    'Authorization',
    'X-API-KEY',
    'apiKey',
    'cardNumber',
    'card_number',
    'cvv',
    'pin',
    'session_id',
    'cookie',
    'jwt',
  ];
  for (const key of secretKeys) {
    test(`"${key}" is masked inside a named value`, async () => {
      const { raw, fields } = await lineFor(
        { fields: ['form'] },
        jsonText(JSON.stringify({ form: { [key]: 'S3CR3T-VALUE', name: 'ann' } })),
      );
      assert.deepEqual(fields, { form: { [key]: '[REDACTED]', name: 'ann' } });
      assert.doesNotMatch(raw, /S3CR3T-VALUE/);
    });
  }

  test('a named path through a secret-named key is masked whole', async () => {
    const { raw, fields } = await lineFor(
      { fields: ['auth.user'] },
      jsonText(JSON.stringify({ auth: { user: 'S3CR3T-VALUE' } })),
    );
    assert.deepEqual(fields, { 'auth.user': '[REDACTED]' });
    assert.doesNotMatch(raw, /S3CR3T-VALUE/);
  });
});

/**
 * Real-world field names, sent together in one body and read back from its line: those that
 * hold secrets in the applications and APIs that use them, and ordinary ones that share a
 * secret word's letters but not its words (`spinner`, `postalCode`).
 */
const secretNames = [
  ['passcode', 'iOS and Android lock screens'],
  ['pinCode', 'a card or SIM PIN'],
  ['otpCode', 'a one-time password'],
  ['mfa_code', 'a second factor'],
  ['verificationCode', 'an SMS or email check'],
  ['authCode', 'an authorization code'],
  ['resetCode', 'a password reset'],
  ['recoveryCodes', 'GitHub-style recovery codes'],
  ['backupCodes', 'Google-style backup codes'],
  ['totp', 'an authenticator code'],
  ['totpSecret', 'an authenticator seed'],
  ['otpauthUrl', 'a QR code of a TOTP seed'],
  ['securityAnswer', 'a security question'],
  ['privKey', 'a private key'],
  ['signingKey', 'a webhook signing key'],
  ['seedPhrase', 'a wallet'],
  ['mnemonic', 'a wallet'],
  ['bearer', 'a bearer token'],
  ['user_ssn', 'a social security number'],
  ['SSNLast4', 'part of one'],
  ['2FACode', 'a second factor'],
  ['smsCode', 'a code sent by SMS'],
  ['cardCode', "Authorize.net's card verification code"],
  ['APIKey', 'an acronym before a word'],
  ['x_api_key', 'an API key'],
  ['newpassword', 'a form field written as one word'],
  ['csrfmiddlewaretoken', "Django's CSRF field"],
  ['encryptionKey', 'a key'],
  ['code', "OAuth's authorization code"],
  ['user_pin', 'a PIN'],
  ['key', 'a short name secret alone'],
  ['auth', 'a short name secret alone'],
  ['pass', 'a short name secret alone'],
  ['pan', "a card's primary account number"],
  ['card', 'a card number'],
  ['cc', 'a card number'],
] as const;

/** Ordinary names masked on purpose: a long secret name inside, or a flag named after one. */
const maskedOnPurpose = [
  ['tokenizer', 'holds "token"'],
  ['max_tokens', 'holds "token"'],
  ['secretary', 'holds "secret"'],
  ['sessionCount', 'holds "session"'],
  ['mfaEnabled', 'a flag named after a secret'],
  ['pinRequired', 'a flag named after a secret'],
] as const;

const ordinaryNames = [
  ['postalCode', 'an address'],
  ['countryCode', 'an ISO code'],
  ['zipCode', 'an address'],
  ['promoCode', 'a shop'],
  ['currencyCode', 'a price'],
  ['statusCode', 'a callback'],
  ['opinion', 'holds "pin"'],
  ['spinner', 'holds "pin"'],
  ['pinned', 'holds "pin"'],
  ['keyboard', 'holds "key"'],
  ['monkey', 'holds "key"'],
  ['primaryKey', 'a database key'],
  ['publicKey', 'public by definition'],
  ['authorName', 'holds "auth"'],
  ['bypass', 'holds "pass"'],
  ['shipping', 'holds "pin"'],
  ['iban', 'personal data, not a secret name'],
  ['birthDate', 'personal data, not a secret name'],
] as const;

/**
 * One test per name of `names`, all sent in one body (each with a value of its own) and read
 * from its one line: each is masked, or each is kept.
 */
function namesTable(title: string, names: readonly (readonly [string, string])[], masked: boolean) {
  describe(title, () => {
    let form: Record<string, unknown> = {};
    before(async () => {
      const body = Object.fromEntries(names.map(([name]) => [name, `value-of-${name}`]));
      const { fields } = await lineFor(
        { fields: ['form'], maxBytes: 65_536 },
        jsonText(JSON.stringify({ form: body })),
      );
      form = (fields as { form: Record<string, unknown> }).form;
    });
    for (const [name, why] of names) {
      test(`"${name}" (${why}) is ${masked ? 'masked' : 'kept'}`, () => {
        assert.equal(form[name], masked ? '[REDACTED]' : `value-of-${name}`);
      });
    }
  });
}

namesTable('body fields: real-world secret names are masked', secretNames, true);
namesTable(
  'body fields: ordinary names holding a secret name are masked on purpose',
  maskedOnPurpose,
  true,
);
namesTable(
  'body fields: ordinary names sharing letters with a secret word are kept',
  ordinaryNames,
  false,
);

describe('body fields: prototypes', () => {
  test('a __proto__ key in a body another parser made is written as data and pollutes nothing', async () => {
    // httpware's json parser refuses such a body; JSON.parse, which other parsers use, keeps
    // `__proto__` as an own key.
    const parsed: Middleware = (req, _res, next) => {
      (req as { body?: unknown }).body = JSON.parse(
        '{"user":{"__proto__":{"polluted":"yes"},"name":"ann"}}',
      );
      next();
    };
    const { fields } = await lineFor({ fields: ['user'] }, {}, [], [parsed]);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.equal(JSON.stringify(fields), '{"user":{"__proto__":{"polluted":"yes"},"name":"ann"}}');
  });

  test('a named path never reads an inherited property', async () => {
    const { raw } = await lineFor(
      { fields: ['toString', 'user.hasOwnProperty', 'items.length'] },
      jsonText('{"user":{},"items":[1,2]}'),
    );
    assert.equal(Object.hasOwn(JSON.parse(raw), 'http.request.body.fields'), false);
  });

  test('a body that is not a plain object (set by another middleware) is not read', async () => {
    class Form {
      user = 'ann';
    }
    const setBody: Middleware = (req, _res, next) => {
      (req as { body?: unknown }).body = new Form();
      next();
    };
    const { fields } = await lineFor({ fields: ['user'] }, {}, [], [setBody]);
    assert.equal(fields, undefined);
  });

  test('a path is not walked through a class instance inside a plain body', async () => {
    class Form {
      user = 'S3CR3T-VALUE';
    }
    const setBody: Middleware = (req, _res, next) => {
      (req as { body?: unknown }).body = { form: new Form() };
      next();
    };
    const { fields } = await lineFor({ fields: ['form.user'] }, {}, [], [setBody]);
    assert.equal(fields, undefined);
  });
});

describe('body fields: forged lines', () => {
  test('keys and values with line breaks, quotes and controls stay inside one line', async () => {
    const forged = '\n{"level":"error","msg":"forged"}\u2028\u0085\u001b[31m';
    const { raw, fields } = await lineFor(
      { fields: ['form'] },
      jsonText(JSON.stringify({ form: { [forged]: forged } })),
    );
    assert.doesNotMatch(raw, rawControl);
    assert.deepEqual(fields, { form: { [forged]: forged } });
    assert.equal(JSON.parse(raw).level, 'info');
  });

  test('a body key named like a line field cannot replace it', async () => {
    const { raw } = await lineFor(
      { fields: ['level', 'http.request.id'] },
      jsonText('{"level":"error","http":{"request":{"id":"forged"}}}'),
    );
    const line = JSON.parse(raw);
    assert.equal(line.level, 'info');
    assert.equal(line['http.request.id'], undefined);
    assert.deepEqual(line['http.request.body.fields'], {
      level: 'error',
      'http.request.id': 'forged',
    });
  });
});
