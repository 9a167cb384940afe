import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toFixed } from '../../src/logger/core/fixed.js';

describe('toFixed', () => {
  it('gives the text Number#toFixed gives, for any number and digits 0..8', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.integer({ min: 0, max: 8 }), (value, digits) => {
        assert.equal(toFixed(value, digits), value.toFixed(digits));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the same text for durations of a few milliseconds at every digit count', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100_000, noNaN: true }), fc.nat(6), (ms, digits) => {
        assert.equal(toFixed(ms, digits), ms.toFixed(digits));
      }),
      { numRuns: 50_000 },
    );
  });

  it('rounds values at or next to a half as toFixed does', () => {
    for (const value of [0.5, 1.5, 2.5, 1.0005, 1.2345, 0.0005, 2.0045, 1e-7, 10.4995, 999.9995]) {
      for (const near of [value, value * (1 + Number.EPSILON), value * (1 - Number.EPSILON)]) {
        for (let digits = 0; digits <= 6; digits++) {
          assert.equal(toFixed(near, digits), near.toFixed(digits), `${near} ${digits}`);
        }
      }
    }
  });

  it('leaves negative, huge and non-finite values to toFixed', () => {
    for (const value of [-1.2345, -0, 1e12, 1e21, Number.POSITIVE_INFINITY, Number.NaN]) {
      assert.equal(toFixed(value, 3), value.toFixed(3));
    }
  });
});
