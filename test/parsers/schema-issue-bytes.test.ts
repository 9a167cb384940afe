import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { issueBytes, validationFailed } from '../../src/parsers/schema.js';

// The 422's byte bound counts each issue's JSON instead of stringifying it: the count must be
// the bytes JSON.stringify would make, for any key a client can send.
describe("a 422 issue's size in bytes", () => {
  it('is the UTF-8 length of the issue as JSON, for any keys and validator message', () => {
    const key = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.integer());
    fc.assert(
      fc.property(fc.array(key, { maxLength: 40 }), fc.string({ unit: 'binary' }), (path, text) => {
        const [issue] = validationFailed([{ path, message: text }], {}, true).issues;
        assert.ok(issue);
        assert.equal(issueBytes(issue), Buffer.byteLength(JSON.stringify(issue)));
      }),
      { numRuns: 500 },
    );
  });
});
