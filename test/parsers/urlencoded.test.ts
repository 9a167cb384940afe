import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const FORM = 'application/x-www-form-urlencoded';

describe('parsers.urlencoded', () => {
  it('parses a flat form', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, 'user=tobi&pet=loki'), {
      user: 'tobi',
      pet: 'loki',
    });
  });

  it('reads an empty body as {}', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, ''), {});
  });

  it('keeps brackets in keys when extended is false', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, 'user[name][first]=Tobi'), {
      'user[name][first]': 'Tobi',
    });
  });

  it('turns repeated keys into arrays when extended is false', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, 'a=1&a=2'), { a: ['1', '2'] });
  });

  it('reads the flat grammar as body-parser does: brackets stripped, [] spread, __proto__ dropped', async () => {
    // qs at depth 0: `[a]` is `a` (its values after the key `a`'s), `[]` spreads over 0, 1, ...
    // (after the integer keys), the empty key and `__proto__` go, and `hasOwnProperty` is data.
    // The values of one written key stay together: `[a]`'s '2' and '' come after `a`'s.
    const form = 'a=1&[a]=2&a=3&[]=x&0=y&__proto__=z&hasOwnProperty=h&=e&[a]=&b=%5Bc%5D=d';
    const result = await exchange(parsers.urlencoded(), FORM, form);
    const expected = { 0: ['y', 'x'], a: ['1', '3', '2', ''], hasOwnProperty: 'h', 'b=[c]': 'd' };
    assertBody(result, expected);
    assert.deepEqual(Object.keys(result.outcome.body as object), Object.keys(expected));
    assert.equal(Object.getPrototypeOf(result.outcome.body), Object.prototype);
  });

  it('keeps the keys of the flat grammar in the order qs gives them, empty values included', async () => {
    const result = await exchange(parsers.urlencoded(), FORM, 'b=1&10=x&a=&2=y&b=&a=2&toString=t');
    const expected = { 2: 'y', 10: 'x', b: ['1', ''], a: ['', '2'], toString: 't' };
    assertBody(result, expected);
    assert.deepEqual(Object.keys(result.outcome.body as object), Object.keys(expected));
  });

  it('parses nested objects when extended is true', async () => {
    const result = await exchange(
      parsers.urlencoded({ extended: true }),
      FORM,
      'user[name][first]=Tobi',
    );
    assertBody(result, { user: { name: { first: 'Tobi' } } });
  });

  it('parses arrays when extended is true', async () => {
    const result = await exchange(
      parsers.urlencoded({ extended: true }),
      FORM,
      'a[]=1&a[]=2&b[0]=x',
    );
    assertBody(result, { a: ['1', '2'], b: ['x'] });
  });

  it('keeps a long array an array (array limit follows the parameter count)', async () => {
    const body = Array.from({ length: 500 }, (_, i) => `f[${i}]=${i}`).join('&');
    const result = await exchange(parsers.urlencoded({ extended: true }), FORM, body);
    assertBody(result, { f: Array.from({ length: 500 }, (_, i) => String(i)) });
  });

  it('parses nesting exactly at depth', async () => {
    const parser = parsers.urlencoded({ extended: true, depth: 2 });
    assertBody(await exchange(parser, FORM, 'a[b][c]=d'), { a: { b: { c: 'd' } } });
  });

  it('refuses nesting past depth with 400 querystring.parse.rangeError', async () => {
    const parser = parsers.urlencoded({ extended: true, depth: 2 });
    const result = await exchange(parser, FORM, 'a[b][c][d]=e');
    assertError(result, 400, 'querystring.parse.rangeError', 'The input exceeded the depth');
  });

  it('parses 32 levels by default', async () => {
    const key = `a${'[b]'.repeat(32)}`;
    const result = await exchange(parsers.urlencoded({ extended: true }), FORM, `${key}=1`);
    let expected: unknown = '1';
    for (let i = 0; i < 32; i++) expected = { b: expected };
    assertBody(result, { a: expected });
  });

  it('accepts parameterLimit parameters', async () => {
    const body = 'a=1&b=2&c=3';
    assertBody(await exchange(parsers.urlencoded({ parameterLimit: 3 }), FORM, body), {
      a: '1',
      b: '2',
      c: '3',
    });
  });

  it('refuses one more than parameterLimit with 413 parameters.too.many', async () => {
    const result = await exchange(
      parsers.urlencoded({ parameterLimit: 3 }),
      FORM,
      'a=1&b=2&c=3&d=4',
    );
    assertError(result, 413, 'parameters.too.many', 'too many parameters');
  });

  it('refuses more than 1000 parameters by default', async () => {
    const body = Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&');
    const result = await exchange(parsers.urlencoded(), FORM, body);
    assertError(result, 413, 'parameters.too.many', 'too many parameters');
  });

  it('decodes a form as browsers send it: + for spaces, UTF-8 escapes', async () => {
    const form =
      'name=J%C3%BCrgen+M%C3%BCller&note=caf%C3%A9+%26+cr%C3%A8me+%E2%82%AC+%F0%9F%98%80';
    assertBody(await exchange(parsers.urlencoded(), FORM, form), {
      name: 'Jürgen Müller',
      note: 'café & crème € 😀',
    });
  });

  it('reads + in a key as a space', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, 'first+name=Ann'), {
      'first name': 'Ann',
    });
  });

  it('reads %2B as a plus sign, not a space', async () => {
    assertBody(await exchange(parsers.urlencoded(), FORM, 'sum=1%2B1+%3D+2'), { sum: '1+1 = 2' });
  });

  it('keeps a value whose escapes are not UTF-8 as written, its + still a space', async () => {
    // decodeURIComponent refuses the whole value: Latin-1, an encoded surrogate, a sequence cut
    // short or broken by a character, an overlong form, past U+10FFFF, a byte no UTF-8 has.
    const form = [
      'a=caf%E9+au+lait',
      'b=%ED%A0%80+x',
      'c=%E2%82+x',
      'd=%C3xA9+x',
      'e=%C0%AF+x',
      'f=%F4%90%80%80+x',
      'g=%F5%80%80%80+x',
    ].join('&');
    assertBody(await exchange(parsers.urlencoded(), FORM, form), {
      a: 'caf%E9 au lait',
      b: '%ED%A0%80 x',
      c: '%E2%82 x',
      d: '%C3xA9 x',
      e: '%C0%AF x',
      f: '%F4%90%80%80 x',
      g: '%F5%80%80%80 x',
    });
  });

  it('keeps a value with a malformed escape as written, its + still a space', async () => {
    const form = 'a=50+%25+%&b=%6g+x&c=x+%4';
    assertBody(await exchange(parsers.urlencoded(), FORM, form), {
      a: '50 %25 %',
      b: '%6g x',
      c: 'x %4',
    });
  });

  it('decodes a value with characters sent unescaped beside + and escapes', async () => {
    const form = 'note=caf%C3%A9+au+lait,+%E2%82%AC+3+(était+2+€)&k=%E2%82%AC+Ā';
    assertBody(await exchange(parsers.urlencoded(), FORM, form), {
      note: 'café au lait, € 3 (était 2 €)',
      k: '€ Ā',
    });
  });

  it('decodes a long browser-encoded value', async () => {
    const value = 'ünï@code & more '.repeat(1000);
    const form = new URLSearchParams({ text: value }).toString();
    assertBody(await exchange(parsers.urlencoded(), FORM, form), { text: value });
  });

  it('decodes an iso-8859-1 form', async () => {
    const result = await exchange(
      parsers.urlencoded(),
      `${FORM}; charset=iso-8859-1`,
      'name=caf%E9',
    );
    assertBody(result, { name: 'café' });
  });

  it('uses defaultCharset iso-8859-1 when the Content-Type has none', async () => {
    const parser = parsers.urlencoded({ defaultCharset: 'iso-8859-1' });
    assertBody(await exchange(parser, FORM, 'name=caf%E9'), { name: 'café' });
  });

  it('lets the utf8 sentinel choose utf-8 with charsetSentinel', async () => {
    const parser = parsers.urlencoded({ charsetSentinel: true, defaultCharset: 'iso-8859-1' });
    const result = await exchange(parser, FORM, 'utf8=%E2%9C%93&name=%C3%A9');
    assertBody(result, { name: 'é' });
  });

  it('lets the iso-8859-1 sentinel choose Latin-1 with charsetSentinel', async () => {
    const parser = parsers.urlencoded({ charsetSentinel: true });
    const result = await exchange(parser, FORM, 'utf8=%26%2310003%3B&name=caf%E9');
    assertBody(result, { name: 'café' });
  });

  it('decodes numeric entities in iso-8859-1 forms with interpretNumericEntities', async () => {
    const parser = parsers.urlencoded({ interpretNumericEntities: true });
    const result = await exchange(parser, `${FORM}; charset=iso-8859-1`, 'name=%26%238364%3B');
    assertBody(result, { name: '€' });
  });

  it('leaves numeric entities alone without interpretNumericEntities', async () => {
    const result = await exchange(
      parsers.urlencoded(),
      `${FORM}; charset=iso-8859-1`,
      'name=%26%238364%3B',
    );
    assertBody(result, { name: '&#8364;' });
  });

  it('refuses charsets other than utf-8 and iso-8859-1 with 415', async () => {
    const result = await exchange(parsers.urlencoded(), `${FORM}; charset=koi8-r`, 'a=b');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "KOI8-R"', {
      charset: 'koi8-r',
    });
  });

  it('matches the urlencoded shorthand and */x-www-form-urlencoded', async () => {
    for (const type of ['urlencoded', '*/x-www-form-urlencoded']) {
      assertBody(await exchange(parsers.urlencoded({ type }), FORM, 'a=b'), { a: 'b' });
    }
  });
});
