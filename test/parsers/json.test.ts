import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';

describe('parsers.json', () => {
  it('parses an object body', async () => {
    assertBody(await exchange(parsers.json(), JSON_TYPE, '{"user":"tobi"}'), { user: 'tobi' });
  });

  it('parses an array body', async () => {
    assertBody(await exchange(parsers.json(), JSON_TYPE, '[1,"a",null]'), [1, 'a', null]);
  });

  it('reads an empty body (Content-Length: 0) as {}', async () => {
    assertBody(await exchange(parsers.json(), JSON_TYPE, ''), {});
  });

  it('reads an empty chunked body as {}', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, [], {
      'transfer-encoding': 'chunked',
    });
    assertBody(result, {});
  });

  it('refuses a top-level primitive in strict mode with the platform message', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, 'true');
    assertError(
      result,
      400,
      'entity.parse.failed',
      `Unexpected token 't', "true" is not valid JSON`,
      {
        body: 'true',
      },
    );
  });

  it('reports the first non-blank character in strict mode, after leading whitespace', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, '  \n "str"');
    const expected = (() => {
      try {
        JSON.parse('  \n #####');
      } catch (err) {
        return (err as Error).message.replace(/#+/g, (r) => '"str"'.slice(0, r.length));
      }
      return '';
    })();
    assertError(result, 400, 'entity.parse.failed', expected);
  });

  it('refuses a blank body in strict mode as JSON.parse("") would', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, '   ');
    assertError(result, 400, 'entity.parse.failed', 'Unexpected end of JSON input');
  });

  it('accepts a top-level primitive with strict: false', async () => {
    assertBody(await exchange(parsers.json({ strict: false }), JSON_TYPE, 'true'), true);
  });

  it('reports malformed JSON as 400 entity.parse.failed with the body', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, '{"user"');
    const err = assertError(result, 400, 'entity.parse.failed', /JSON/, { body: '{"user"' });
    assert.ok(err instanceof SyntaxError, 'a JSON parse error is a SyntaxError, as in body-parser');
  });

  it('passes the reviver to JSON.parse', async () => {
    const reviver = (key: string, value: unknown) => (key === 'n' ? Number(value) * 2 : value);
    assertBody(await exchange(parsers.json({ reviver }), JSON_TYPE, '{"n":21}'), { n: 42 });
  });

  it('reports an error thrown by the reviver as 400 entity.parse.failed', async () => {
    const reviver = () => {
      throw new Error('reviver says no');
    };
    const result = await exchange(parsers.json({ reviver }), JSON_TYPE, '{"n":1}');
    assertError(result, 400, 'entity.parse.failed', 'reviver says no', { body: '{"n":1}' });
  });

  it('strips a utf-8 byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
    assertBody(await exchange(parsers.json(), JSON_TYPE, body), { a: 1 });
  });

  it('decodes utf-16 with a byte-order mark', async () => {
    const body = iconv.encode('{"name":"论"}', 'utf-16', { addBOM: true });
    assertBody(await exchange(parsers.json(), `${JSON_TYPE}; charset=utf-16`, body), {
      name: '论',
    });
  });

  it('decodes utf-16le and utf-16be', async () => {
    for (const charset of ['utf-16le', 'utf-16be']) {
      const body = iconv.encode('{"name":"论"}', charset);
      assertBody(await exchange(parsers.json(), `${JSON_TYPE}; charset=${charset}`, body), {
        name: '论',
      });
    }
  });

  it('decodes utf-32', async () => {
    const body = iconv.encode('{"name":"论"}', 'utf-32', { addBOM: true });
    assertBody(await exchange(parsers.json(), `${JSON_TYPE}; charset=utf-32`, body), {
      name: '论',
    });
  });

  it('reads the charset parameter case-insensitively and quoted', async () => {
    const result = await exchange(parsers.json(), `${JSON_TYPE}; Charset="UTF-8"`, '{"a":"é"}');
    assertBody(result, { a: 'é' });
  });

  it('refuses a non-Unicode charset with 415 charset.unsupported', async () => {
    const result = await exchange(parsers.json(), `${JSON_TYPE}; charset=koi8-r`, '{}');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "KOI8-R"', {
      charset: 'koi8-r',
    });
  });

  it('refuses utf-7, which smuggles markup past byte filters (deliberate)', async () => {
    const result = await exchange(parsers.json(), `${JSON_TYPE}; charset=utf-7`, '{"a":"+ADw-"}');
    assertError(result, 415, 'charset.unsupported', 'unsupported charset "UTF-7"', {
      charset: 'utf-7',
    });
  });

  it('parses application/json with parameters and odd case', async () => {
    const result = await exchange(parsers.json(), 'Application/JSON ; foo=bar', '{"a":1}');
    assertBody(result, { a: 1 });
  });

  it('skips other media types, leaving req.body undefined', async () => {
    const result = await exchange(parsers.json(), 'text/plain', '{"a":1}');
    assertBody(result, undefined);
  });

  it('does not match application/json-x (no prefix matching)', async () => {
    assertBody(await exchange(parsers.json(), 'application/json-x', '{"a":1}'), undefined);
  });
});
