import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import typeis from 'type-is';
import { compileTypeMatcher, parseContentType } from '../../src/parsers/media-type.js';

describe('Content-Type parsing', () => {
  it('lower-cases and trims the media type', () => {
    assert.deepEqual(parseContentType(' Application/JSON ; charset=UTF-8'), {
      type: 'application/json',
      charset: 'utf-8',
    });
  });

  it('reads a quoted charset with escapes', () => {
    assert.equal(parseContentType('text/plain; charset="ut\\f-8"').charset, 'utf-8');
  });

  it('keeps the first charset parameter', () => {
    assert.equal(parseContentType('text/plain; charset=a; charset=b').charset, 'a');
  });

  it('skips malformed parameters', () => {
    assert.equal(parseContentType('text/plain; foo; ;charset=koi8-r').charset, 'koi8-r');
    assert.equal(parseContentType('text/plain; charset="unterminated').charset, undefined);
    assert.equal(parseContentType('text/plain; x="a;charset=b"').charset, undefined);
  });

  it('gives a null type for an invalid media type', () => {
    for (const header of [
      'text',
      'text/',
      '/plain',
      'text/plain/x',
      'text/plain, text/html',
      'tex t/plain',
      '',
    ]) {
      assert.equal(parseContentType(header).type, null, header);
    }
    assert.equal(parseContentType(undefined).type, null);
  });
});

describe('type matching', () => {
  const headers = [
    'application/json',
    'application/vnd.api+json',
    'text/json',
    'text/plain',
    'text/html',
    'application/octet-stream',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'image/svg+xml',
    'application/json-x',
    'APPLICATION/JSON; charset=utf-8',
    'json',
    '',
  ];
  const types: unknown[] = [
    'json',
    'bin',
    'txt',
    'html',
    'urlencoded',
    'multipart',
    '*/*',
    'application/*',
    '*/json',
    '+json',
    'application/*+json',
    '*/*+xml',
    'text/*',
    'Application/JSON',
    'unknownext',
    ['json', 'text/*'],
    [],
    5,
  ];

  it('agrees with type-is on every header and type', () => {
    for (const type of types) {
      const matches = compileTypeMatcher(type);
      for (const header of headers) {
        const req = { headers: { 'content-type': header, 'content-length': '1' } };
        const expected = Boolean(typeis(req as never, type as string[]));
        assert.equal(
          matches(parseContentType(header).type),
          expected,
          `${JSON.stringify(type)} ~ ${header}`,
        );
      }
    }
  });
});
