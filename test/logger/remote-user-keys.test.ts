// An API key sent as the Basic-auth user name with an empty password (`curl -u sk_live_...:`,
// the scheme of Stripe and others) is a credential: it reaches no line or record while the
// logger masks `Authorization`, in any format. A person's name, with a password or without, is
// logged as morgan logs it, and `redact: false` logs the key as morgan does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { firstLine, loggedServer } from '../helpers/logger.js';

const KEY = 'sk_live_51HostileKey0123456789';
const MASK = '[REDACTED]';
const basic = (userPass: string) => ({
  headers: { authorization: `Basic ${Buffer.from(userPass).toString('base64')}` },
});
const apiKey = basic(`${KEY}:`);

const formats = {
  combined: (line: string) => line.split(' ')[2],
  common: (line: string) => line.split(' ')[2],
  short: (line: string) => line.split(' ')[1],
  ':remote-user': (line: string) => line,
  'user=:remote-user :method': (line: string) => line.split(' ')[0]?.slice('user='.length),
} as const;

for (const [format, userIn] of Object.entries(formats)) {
  describe(`an API key as the Basic user name, in ${format}`, () => {
    it('is masked', async () => {
      const line = await firstLine((stream) => logger(format, { stream }), apiKey);
      assert.equal(line.includes(KEY), false, line);
      assert.equal(userIn(line), MASK);
    });

    it('is written as morgan writes it with redact: false', async () => {
      const line = await firstLine((stream) => logger(format, { stream, redact: false }), apiKey);
      assert.equal(userIn(line), KEY);
    });

    it('is masked under a redact option that adds names', async () => {
      const line = await firstLine(
        (stream) => logger(format, { stream, redact: { headers: ['x-other'] } }),
        apiKey,
      );
      assert.equal(userIn(line), MASK);
    });

    it('is written when a redact option takes authorization off the list', async () => {
      const redact = {
        headers: (names: readonly string[]) => names.filter((name) => name !== 'authorization'),
      };
      const line = await firstLine((stream) => logger(format, { stream, redact }), apiKey);
      assert.equal(userIn(line), KEY);
    });

    it('is masked when the password is only white space (a space, a tab, a NUL, a no-break space)', async () => {
      for (const password of [' ', '\t', '\u0000', '\u00a0', '  ']) {
        const line = await firstLine(
          (stream) => logger(format, { stream }),
          basic(`${KEY}:${password}`),
        );
        assert.equal(userIn(line), MASK, JSON.stringify(password));
      }
    });

    it('a user name with a password is written as it is', async () => {
      const line = await firstLine((stream) => logger(format, { stream }), basic('tobi:ferret'));
      assert.equal(userIn(line), 'tobi');
    });
  });
}

// Real key shapes (made up, in each provider's published format) and people's user names, all
// sent with an empty password.
const KEYS = [
  'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  'rk_test_abcdefghijklmnopqrstuvwx',
  'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
  'github_pat_11ABCDEFG0abcdefghijklmnop',
  'xoxb-123456789012-abcdefghijklmnop',
  'AKIAIOSFODNN7EXAMPLE',
  'glpat-abcdefghijklmnopqrst',
  'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  'SG.abcdefghijklmnop.qrstuvwxyz',
  'shpat_abcdefghijklmnopqrstuvwxyz',
  'key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
  '550e8400-e29b-41d4-a716-446655440000',
  'd41d8cd98f00b204e9800998ecf8427e',
  'dGhpcyBpcyBhIGJhc2U2NCBrZXkx',
];
const NAMES = [
  'tj',
  'tobi',
  'admin',
  'alice@example.com',
  'christopher_alexander',
  'firstname.lastname2024',
  'sk_bob',
  'key-master',
  'AKIA',
  'Jane Doe 1234567890abcdef',
];

describe('a user name sent with no password', () => {
  it('is masked when it has the shape of a key', async () => {
    for (const key of KEYS) {
      const line = await firstLine(
        (stream) => logger(':remote-user', { stream }),
        basic(`${key}:`),
      );
      assert.equal(line, MASK, key);
    }
  });

  it("is written as morgan writes it when it is a person's name", async () => {
    for (const name of NAMES) {
      const line = await firstLine(
        (stream) => logger(':remote-user', { stream }),
        basic(`${name}:`),
      );
      assert.equal(line, name);
    }
  });

  it("is written as it is in combined when it is a person's name", async () => {
    const line = await firstLine((stream) => logger('combined', { stream }), basic('tj:'));
    assert.equal(line.split(' ')[2], 'tj');
  });
});

describe('an API key as the Basic user name, in JSON fields and OpenTelemetry records', () => {
  it('is masked in a JSON field reading :remote-user', async () => {
    const format = logger.json({ 'user.name': ':remote-user' });
    const line = await firstLine((stream) => logger(format, { stream }), apiKey);
    assert.deepEqual(JSON.parse(line), { 'user.name': MASK });
  });

  it('is in no json or ecs line', async () => {
    for (const format of ['json', 'ecs']) {
      const line = await firstLine((stream) => logger(format, { stream }), apiKey);
      assert.equal(line.includes(KEY), false, line);
    }
  });

  it('is masked in the body and attributes of the records of a text format', async () => {
    const exporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const server = await loggedServer((stream) =>
      logger('combined', { stream, otel: { loggerProvider } }),
    );
    try {
      await send(server, apiKey);
      await server.capture.waitFor(1);
      const [record] = exporter.getFinishedLogRecords();
      assert.ok(record);
      assert.equal(JSON.stringify([record.body, record.attributes]).includes(KEY), false);
      assert.equal(String(record.body).split(' ')[2], MASK);
    } finally {
      await server.close();
    }
  });
});
