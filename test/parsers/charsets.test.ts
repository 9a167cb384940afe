import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { charsetExists, decode, formCharsets, unicodeOnly } from '../../src/parsers/charset.js';

describe('charsets', () => {
  it('decodes utf-8 as iconv-lite does, BOM and invalid bytes included', () => {
    const samples = [
      Buffer.from('\ufeffhello'),
      Buffer.from('plain'),
      Buffer.from([0x61, 0xff, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from('\ufeff\ufeffdouble'),
      Buffer.alloc(0),
    ];
    for (const sample of samples)
      assert.equal(decode(sample, 'utf-8'), iconv.decode(sample, 'utf-8'));
  });

  it('decodes other charsets with iconv-lite', () => {
    assert.equal(decode(iconv.encode('привет', 'koi8-r'), 'koi8-r'), 'привет');
    assert.equal(decode(iconv.encode('hé', 'utf-16', { addBOM: true }), 'utf-16'), 'hé');
  });

  it('accepts only Unicode charsets for JSON, utf-7 refused', () => {
    for (const charset of [
      'utf-8',
      'utf-16',
      'utf-16le',
      'utf-16be',
      'utf-32',
      'utf-32le',
      'utf-32be',
    ]) {
      assert.equal(unicodeOnly?.(charset), true, charset);
    }
    for (const charset of ['utf-7', 'utf8', 'koi8-r', 'iso-8859-1', 'utf-9']) {
      assert.equal(unicodeOnly?.(charset), false, charset);
    }
  });

  it('accepts utf-8 and iso-8859-1 only for forms', () => {
    assert.equal(formCharsets?.('utf-8'), true);
    assert.equal(formCharsets?.('iso-8859-1'), true);
    assert.equal(formCharsets?.('latin1'), false);
  });

  it('accepts any charset iconv-lite knows for text', () => {
    assert.equal(charsetExists('koi8-r'), true);
    assert.equal(charsetExists('utf-8'), true);
    assert.equal(charsetExists('x-bogus'), false);
  });
});
