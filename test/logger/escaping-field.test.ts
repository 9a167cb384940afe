// escapeLogField: backslash and `"` get a backslash, \b \f \n \r \t their short escapes, every other
// C0 control, DEL, C1 control, U+2028 and U+2029 become \uXXXX; the same output as morgan 1.12.1
// for any string.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import morgan from 'morgan';
import { escapeLogField } from '../../src/logger/core/escape.js';
import { fc } from '../helpers/properties.js';

// morgan keeps its tokens on the morgan function, wrapped with its own escaping.
morgan.token('echo-for-escape-test', (_req, _res, value) => value as string);
const morganEscape = (value: string): string =>
  (morgan as unknown as Record<string, (req: null, res: null, arg: string) => string>)[
    'echo-for-escape-test'
  ]?.(null, null, value) ?? '';

describe('escapeLogField', () => {
  it('escapes backslash and double quote with a backslash', () => {
    assert.equal(escapeLogField('a\\b"c'), 'a\\\\b\\"c');
  });

  it('uses the short escapes for \\b \\f \\n \\r \\t', () => {
    assert.equal(escapeLogField('\b\f\n\r\t'), '\\b\\f\\n\\r\\t');
  });

  it('writes other C0 controls, DEL and C1 controls as \\u with lower-case hex', () => {
    assert.equal(
      escapeLogField('\x00\x1b\x1f\x7f\x80\x9b\x9f'),
      '\\u0000\\u001b\\u001f\\u007f\\u0080\\u009b\\u009f',
    );
  });

  it('escapes the line and paragraph separators', () => {
    assert.equal(escapeLogField('\u2028\u2029'), '\\u2028\\u2029');
  });

  it('leaves printable ASCII and other Unicode alone', () => {
    const text = " !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~\u00a0é中😀\ufeff";
    assert.equal(escapeLogField(text), text);
  });

  it('agrees with morgan 1.12.1 on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        assert.equal(escapeLogField(value), morganEscape(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('never leaves a line break or control character in its output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        assert.doesNotMatch(escapeLogField(value), /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      }),
    );
  });

  it('treats every UTF-16 code unit alone and in a long value as morgan does', () => {
    // Short values are tested by a loop, long ones by a RegExp (escape.ts): both, at every unit.
    const padding = 'x'.repeat(16);
    for (let unit = 0; unit <= 0xffff; unit++) {
      const ch = String.fromCharCode(unit);
      const expected = morganEscape(ch);
      assert.equal(escapeLogField(ch), expected, `U+${unit.toString(16)} alone`);
      assert.equal(
        escapeLogField(`${padding}${ch}`),
        `${padding}${expected}`,
        `U+${unit.toString(16)} last of 17`,
      );
    }
  });
});
