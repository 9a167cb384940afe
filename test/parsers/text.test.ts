import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

describe('parsers.text', () => {
  it('reads a text/plain body as a string', async () => {
    assertBody(await exchange(parsers.text(), 'text/plain', 'user is tobi'), 'user is tobi');
  });

  it('reads an empty body as ""', async () => {
    assertBody(await exchange(parsers.text(), 'text/plain', ''), '');
  });

  it('decodes koi8-r', async () => {
    const body = iconv.encode('привет', 'koi8-r');
    assertBody(await exchange(parsers.text(), 'text/plain; charset=koi8-r', body), 'привет');
  });

  it('decodes windows-1252', async () => {
    const body = iconv.encode('naïve €', 'windows-1252');
    assertBody(await exchange(parsers.text(), 'text/plain; charset=windows-1252', body), 'naïve €');
  });

  it('decodes utf-16 with a byte-order mark and strips it', async () => {
    const body = iconv.encode('hi 论', 'utf-16', { addBOM: true });
    assertBody(await exchange(parsers.text(), 'text/plain; charset=utf-16', body), 'hi 论');
  });

  it('uses defaultCharset when the Content-Type has none', async () => {
    const body = iconv.encode('привет', 'koi8-r');
    const parser = parsers.text({ defaultCharset: 'koi8-r' });
    assertBody(await exchange(parser, 'text/plain', body), 'привет');
  });

  it('prefers the Content-Type charset over defaultCharset', async () => {
    const parser = parsers.text({ defaultCharset: 'koi8-r' });
    assertBody(await exchange(parser, 'text/plain; charset=utf-8', 'é'), 'é');
  });

  it('refuses a charset nobody knows with 415 charset.unsupported', async () => {
    const result = await exchange(parsers.text(), 'text/plain; charset=x-bogus', 'hi');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "X-BOGUS"', {
      charset: 'x-bogus',
    });
  });

  it('parses text/html when given as type', async () => {
    const parser = parsers.text({ type: 'text/html' });
    assertBody(await exchange(parser, 'text/html', '<p>tobi</p>'), '<p>tobi</p>');
  });
});
