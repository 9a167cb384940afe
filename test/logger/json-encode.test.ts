// encodeInner: a string's JSON text without the quotes, so that a line can escape a value once
// and write it both as its own field and inside the message. Pieces escaped one by one and
// joined with a space must read exactly as the joined string escaped whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeInner, encodeString } from '../../src/logger/json/encode.js';
import { fc, hostileString } from '../helpers/properties.js';

const hostile = hostileString(['"', '\\', '\n', '\u0085', '\u2028', '\ud800', '\udc00', '😀']);

describe('encodeInner', () => {
  it('returns a string that needs no escape as it is', () => {
    const text = 'GET /api/items/42 é中';
    assert.equal(encodeInner(text), text);
  });

  it('is encodeString without its quotes', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        assert.equal(`"${encodeInner(value)}"`, encodeString(value));
      }),
    );
  });

  it('escapes pieces joined by a space as the joined string escaped whole', () => {
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        assert.equal(`"${encodeInner(a)} ${encodeInner(b)}"`, encodeString(`${a} ${b}`));
      }),
    );
  });

  it('escapes a lone surrogate at the end of one piece and one at the start of the next', () => {
    assert.equal(`"${encodeInner('a\ud83d')} ${encodeInner('\ude00b')}"`, '"a\\ud83d \\ude00b"');
  });
});
