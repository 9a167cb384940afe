// roundedText: a duration in JSON lines, written from an integer count of 10^-digits rather
// than by converting a fractional double to text, and always the text `String` would write
// for the rounded number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundedText, roundTo } from '../../src/logger/json/builtins.js';
import { fc } from '../helpers/properties.js';

describe('roundedText', () => {
  it('writes three decimals without trailing zeros', () => {
    assert.equal(roundedText(12.3456, 3), '12.346');
    assert.equal(roundedText(0.0504, 3), '0.05');
    assert.equal(roundedText(0.0009, 3), '0.001');
    assert.equal(roundedText(7.0001, 3), '7');
  });

  it('writes what String writes for the rounded number, for any duration and decimals', () => {
    const duration = fc.oneof(
      fc.double({ min: 0, max: 1e7, noNaN: true }),
      fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000 + 0.0005),
      fc.double(),
    );
    fc.assert(
      fc.property(duration, fc.integer({ min: 0, max: 15 }), (ms, digits) => {
        assert.equal(roundedText(ms, digits), String(roundTo(ms, digits)));
      }),
      { numRuns: 2000 },
    );
  });
});
