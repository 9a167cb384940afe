// basicAuthUser reads the user exactly as the basic-auth package (morgan's) does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { basicAuthUser } from '../../src/logger/core/basic-auth.js';
import { fc } from '../helpers/properties.js';

const basicAuth = createRequire(import.meta.url)('basic-auth') as {
  parse(header: string): { name: string; pass: string } | undefined;
};

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe('basicAuthUser', () => {
  it('returns the user of valid credentials', () => {
    assert.equal(basicAuthUser(basic('tobi:ferret')), 'tobi');
  });

  it('keeps everything after the first colon as the password', () => {
    assert.equal(basicAuthUser(basic('a:b:c')), 'a');
  });

  it('is undefined without a colon, for another scheme, or for a non-string', () => {
    assert.equal(basicAuthUser(basic('nocolon')), undefined);
    assert.equal(basicAuthUser('Bearer abc'), undefined);
    assert.equal(basicAuthUser(undefined), undefined);
  });

  it('is undefined when the password holds a line break (as in basic-auth)', () => {
    assert.equal(basicAuthUser(basic('user:pa\nss')), undefined);
  });

  it('agrees with basic-auth on any credentials', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (userPass) => {
        const header = basic(userPass);
        assert.equal(basicAuthUser(header), basicAuth.parse(header)?.name);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with basic-auth on any header text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.stringMatching(/^ *[Bb][Aa][Ss][Ii][Cc] +[A-Za-z0-9+/=._~-]{0,12} *$/),
        ),
        (header) => {
          assert.equal(basicAuthUser(header), basicAuth.parse(header)?.name);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
