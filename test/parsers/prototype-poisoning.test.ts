import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';

describe('JSON prototype poisoning', () => {
  it('refuses a __proto__ key by default with 400 entity.prototype.forbidden', async () => {
    const body = '{"a":1,"__proto__":{"isAdmin":true}}';
    const result = await exchange(parsers.json(), JSON_TYPE, body);
    assertError(
      result,
      400,
      'entity.prototype.forbidden',
      'forbidden prototype property "__proto__" in JSON body',
      {
        body,
        key: '__proto__',
      },
    );
  });

  it('refuses a nested constructor.prototype key by default', async () => {
    const body = '{"a":[{"constructor":{"prototype":{"isAdmin":true}}}]}';
    const result = await exchange(parsers.json(), JSON_TYPE, body);
    assertError(result, 400, 'entity.prototype.forbidden', /constructor\.prototype/, {
      key: 'constructor.prototype',
    });
  });

  it('refuses escaped spellings such as "\\u005f_proto__"', async () => {
    for (const key of ['\\u005f_proto__', '__pr\\u006fto__', '\\u005F\\u005Fproto__']) {
      const result = await exchange(parsers.json(), JSON_TYPE, `{"${key}":{"x":1}}`);
      assertError(result, 400, 'entity.prototype.forbidden', /__proto__/);
    }
    const ctor = '{"c\\u006fnstructor":{"prototype":{}}}';
    assertError(
      await exchange(parsers.json(), JSON_TYPE, ctor),
      400,
      'entity.prototype.forbidden',
      /constructor/,
    );
  });

  it('accepts a constructor key whose value has no prototype', async () => {
    assertBody(await exchange(parsers.json(), JSON_TYPE, '{"constructor":"Ada"}'), {
      constructor: 'Ada',
    });
  });

  it('accepts "__proto__" as a value, not a key', async () => {
    assertBody(await exchange(parsers.json(), JSON_TYPE, '{"a":"__proto__"}'), { a: '__proto__' });
  });

  it('removes the keys with onProtoPoisoning: "remove"', async () => {
    const parser = parsers.json({ onProtoPoisoning: 'remove' });
    const result = await exchange(
      parser,
      JSON_TYPE,
      '{"a":1,"__proto__":{"x":1},"b":{"constructor":{"prototype":{}}}}',
    );
    assertBody(result, { a: 1, b: {} });
    const body = result.outcome.body as object;
    assert.equal(Object.hasOwn(body, '__proto__'), false);
  });

  it('keeps the keys with onProtoPoisoning: "ignore" (body-parser\'s behaviour)', async () => {
    const parser = parsers.json({ onProtoPoisoning: 'ignore' });
    const result = await exchange(parser, JSON_TYPE, '{"__proto__":{"x":1}}');
    assert.equal(result.outcome.error, undefined);
    const body = result.outcome.body as object;
    assert.equal(Object.hasOwn(body, '__proto__'), true);
    assert.equal(
      Object.getPrototypeOf(body),
      Object.prototype,
      'JSON.parse never sets the prototype',
    );
  });

  it('with a reviver, neither walks nor changes the objects the reviver returns', async () => {
    // Regression: the guard walked the revived result, so a reviver handing back a shared,
    // cyclic application object hung the process on any body containing "constructor".
    const shared: Record<string, unknown> = {
      toJSON: () => 'shared',
      constructor: { prototype: {} },
    };
    shared.self = shared;
    const reviver = (key: string, value: unknown) => (key === 'ref' ? shared : value);
    const result = await exchange(
      parsers.json({ reviver, onProtoPoisoning: 'remove' }),
      JSON_TYPE,
      '{"ref":1,"constructor":"Ada"}',
    );
    assert.equal(result.outcome.error, undefined);
    const body = result.outcome.body as Record<string, unknown>;
    assert.equal(body.ref, shared);
    assert.equal(body.constructor, 'Ada');
    assert.deepEqual(shared.constructor, { prototype: {} }, 'the application object is unchanged');
  });

  it('with a reviver, still refuses or removes the keys before the reviver sees them', async () => {
    const seen: string[] = [];
    const reviver = (key: string, value: unknown) => {
      seen.push(key);
      return value;
    };
    const body = '{"a":[{"c\\u006fnstructor":{"prototype":{}}}],"__proto__":{"x":1}}';
    assertError(
      await exchange(parsers.json({ reviver }), JSON_TYPE, body),
      400,
      'entity.prototype.forbidden',
      /constructor\.prototype/,
      { key: 'constructor.prototype', body },
    );
    assert.equal(seen.includes('constructor'), false);
    seen.length = 0;
    const removed = await exchange(
      parsers.json({ reviver, onProtoPoisoning: 'remove' }),
      JSON_TYPE,
      body,
    );
    assertBody(removed, { a: [{}] });
    assert.equal(Object.hasOwn(removed.outcome.body as object, '__proto__'), false);
    assert.equal(seen.includes('__proto__') || seen.includes('constructor'), false);
  });

  it('walks a deeply nested body without overflowing the stack', async () => {
    const body = `${'['.repeat(5000)}{"__proto__":1}${']'.repeat(5000)}`;
    const result = await exchange(parsers.json({ limit: '1mb' }), JSON_TYPE, body);
    assertError(result, 400, 'entity.prototype.forbidden', /__proto__/);
  });
});
