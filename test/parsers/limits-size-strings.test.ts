import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bytes from 'bytes';
import { parseBytes } from '../../src/parsers/bytes.js';

describe('size strings', () => {
  const samples: unknown[] = [
    0,
    1,
    1024,
    1.5,
    -1,
    Number.POSITIVE_INFINITY,
    Number.NaN,
    '1',
    '100',
    '100b',
    '1kb',
    '1KB',
    '1 kb',
    '1  mb',
    '1.5mb',
    '0.5gb',
    '1tb',
    '1pb',
    '+2kb',
    '-2kb',
    '1.kb',
    'kb',
    'abc',
    '',
    ' ',
    '12abc',
    '1e3',
    '1kb ',
    ' 1kb',
    '1 b',
    '1b',
    true,
    null,
    undefined,
    {},
    [],
  ];

  it("reads every sample as body-parser's bytes package does", () => {
    for (const sample of samples) {
      assert.equal(parseBytes(sample), bytes.parse(sample as string), JSON.stringify(sample));
    }
  });

  it('uses base 1024 and floors', () => {
    assert.equal(parseBytes('100kb'), 102400);
    assert.equal(parseBytes('1.5mb'), 1572864);
    assert.equal(parseBytes('1.0001kb'), 1024);
  });

  it('refuses what is not a size', () => {
    assert.equal(parseBytes('ten'), null);
    assert.equal(parseBytes(Number.NaN), null);
    assert.equal(parseBytes(false), null);
  });
});
