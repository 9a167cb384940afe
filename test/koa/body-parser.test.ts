import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import type { BodyParserOptions } from '../../src/koa/types.js';
import { abandon, send } from '../helpers/client.js';
import { type KoaMiddleware, type KoaVersion, koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines } from '../helpers/lines.js';

// httpware/koa's bodyParser, as a user switching from @koa/bodyparser or koa-bodyparser finds
// it: their option names and defaults, what they leave on ctx.request, on real Koa 2 and 3
// servers. (Their own suites, run against it, are in docs/koa.md.)

const UNSET = '<undefined>';

/** Answers what the body parser left on ctx.request and ctx.req. */
const echo: KoaMiddleware = async (ctx) => {
  const { body, rawBody } = ctx.request as { body?: unknown; rawBody?: unknown };
  const node = ctx.req as { body?: unknown; rawBody?: unknown };
  ctx.body = {
    body: body === undefined ? UNSET : body,
    rawBody: rawBody === undefined ? UNSET : rawBody,
    reqBody: node.body === undefined ? UNSET : node.body,
    reqRawBody: node.rawBody === undefined ? UNSET : node.rawBody,
  };
};

interface Echoed {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
  readonly rawBody: unknown;
  readonly reqBody: unknown;
  readonly reqRawBody: unknown;
}

async function exchange(
  version: KoaVersion,
  options: BodyParserOptions | undefined,
  request: Parameters<typeof send>[1],
  before: readonly KoaMiddleware[] = [],
): Promise<Echoed> {
  const server = await serveKoa(version, [...before, koa.bodyParser(options), echo]);
  try {
    const reply = await send(server, { method: 'POST', ...request });
    const echoed = reply.headers['content-type']?.startsWith('application/json')
      ? JSON.parse(reply.text)
      : {};
    return { status: reply.status, text: reply.text, ...echoed };
  } finally {
    await server.close();
  }
}

const FORM = 'application/x-www-form-urlencoded';

const typed = (type: string, body: string | Buffer) => ({
  headers: { 'content-type': type },
  body,
});

for (const version of koaVersions) {
  describe(`${version}: bodyParser`, () => {
    test('reads JSON into ctx.request.body and its text into ctx.request.rawBody', async () => {
      const reply = await exchange(version, undefined, typed('application/json', '{"a": [1]}'));
      assert.deepEqual([reply.body, reply.rawBody], [{ a: [1] }, '{"a": [1]}']);
    });

    for (const type of [
      'application/vnd.api+json',
      'application/json-patch+json',
      'application/csp-report',
      'application/reports+json',
      'application/scim+json',
    ]) {
      test(`reads ${type} as JSON by default`, async () => {
        const reply = await exchange(version, undefined, typed(type, '[{"op":"add"}]'));
        assert.deepEqual(reply.body, [{ op: 'add' }]);
      });
    }

    test('reads a form nested, as qs does', async () => {
      const reply = await exchange(
        version,
        undefined,
        typed('application/x-www-form-urlencoded', 'user[name]=ann&tags[]=a&tags[]=b'),
      );
      assert.deepEqual(reply.body, { user: { name: 'ann' }, tags: ['a', 'b'] });
    });

    test("reads a dotted form key as a group (co-body's allowDots)", async () => {
      const reply = await exchange(
        version,
        undefined,
        typed('application/x-www-form-urlencoded', 'user.name=ann&user.age=7'),
      );
      assert.deepEqual(reply.body, { user: { name: 'ann', age: '7' } });
    });

    test('queryString: { allowDots: false } keeps a dotted key whole', async () => {
      const reply = await exchange(
        version,
        { queryString: { allowDots: false } },
        typed('application/x-www-form-urlencoded', 'user.name=ann'),
      );
      assert.deepEqual(reply.body, { 'user.name': 'ann' });
    });

    test('keeps the groups of a form key past depth 5 as one key, not a 400', async () => {
      const reply = await exchange(
        version,
        undefined,
        typed('application/x-www-form-urlencoded', 'a[b][c][d][e][f][g]=1'),
      );
      assert.deepEqual(reply.body, { a: { b: { c: { d: { e: { f: { '[g]': '1' } } } } } } });
    });

    test('sets ctx.request.body to {} for a body of no enabled kind, and no rawBody', async () => {
      const reply = await exchange(version, undefined, typed('text/plain', 'hello'));
      assert.deepEqual([reply.body, reply.rawBody], [{}, UNSET]);
    });

    test("reads text and xml (as text) when enableTypes names them, xml's own types", async () => {
      const options: BodyParserOptions = { enableTypes: ['text', 'xml'] };
      const text = await exchange(version, options, typed('text/plain', 'hello'));
      const xml = await exchange(version, options, typed('application/xml', '<a>1</a>'));
      assert.deepEqual([text.body, xml.body, xml.rawBody], ['hello', '<a>1</a>', '<a>1</a>']);
    });

    test('extendTypes adds a media type to a kind, given as a string or a list', async () => {
      const one = await exchange(
        version,
        { extendTypes: { json: 'application/x-javascript' } },
        typed('application/x-javascript', '{"a":1}'),
      );
      const list = await exchange(
        version,
        { extendTypes: { text: ['text/html'] }, enableTypes: ['text'] },
        typed('text/html', '<h1>'),
      );
      assert.deepEqual([one.body, list.body], [{ a: 1 }, '<h1>']);
    });

    test('reads a JSON body of 200 kB: jsonLimit is 1mb by default', async () => {
      const big = JSON.stringify({ pad: 'x'.repeat(200 * 1024) });
      const reply = await exchange(version, undefined, typed('application/json', big));
      assert.equal(reply.status, 200);
    });

    test('refuses a form of 57 kB with a 413: formLimit is 56kb by default', async () => {
      const form = `pad=${'x'.repeat(57 * 1024)}`;
      const reply = await exchange(
        version,
        undefined,
        typed('application/x-www-form-urlencoded', form),
      );
      assert.equal(reply.status, 413);
    });

    test('jsonLimit, textLimit and xmlLimit each bound their own kind', async () => {
      const options: BodyParserOptions = {
        enableTypes: ['json', 'text', 'xml'],
        jsonLimit: 10,
        textLimit: 20,
        xmlLimit: 30,
      };
      const statuses = [];
      for (const [type, size] of [
        ['application/json', 11],
        ['text/plain', 21],
        ['text/xml', 31],
        ['text/plain', 11],
        ['text/xml', 21],
      ] as const) {
        const body = type === 'application/json' ? `"${'x'.repeat(size - 2)}"` : 'x'.repeat(size);
        statuses.push(
          (await exchange(version, { ...options, jsonStrict: false }, typed(type, body))).status,
        );
      }
      assert.deepEqual(statuses, [413, 413, 413, 200, 200]);
    });

    test('refuses a JSON string at the top level with a 400 (jsonStrict by default)', async () => {
      const reply = await exchange(version, undefined, typed('application/json', '"a"'));
      assert.equal(reply.status, 400);
    });

    test('jsonStrict: false, or strict: false (koa-bodyparser 4), reads any JSON value', async () => {
      const six = await exchange(version, { jsonStrict: false }, typed('application/json', '"a"'));
      const four = await exchange(version, { strict: false }, typed('application/json', 'null'));
      assert.deepEqual([six.body, four.body], ['a', null]);
    });

    test('refuses a __proto__ key in JSON with a 400, and onProtoPoisoning: remove drops it', async () => {
      const body = '{"__proto__":{"admin":true},"a":1}';
      const refused = await exchange(version, undefined, typed('application/json', body));
      const removed = await exchange(
        version,
        { onProtoPoisoning: 'remove' },
        typed('application/json', body),
      );
      assert.deepEqual([refused.status, removed.body], [400, { a: 1 }]);
    });

    test('detectJSON reads the body as JSON whatever its Content-Type', async () => {
      const reply = await exchange(
        version,
        { detectJSON: (ctx) => ctx.path.endsWith('.json') },
        { path: '/a.json', ...typed('application/x-www-form-urlencoded', '{"a":1}') },
      );
      assert.deepEqual(reply.body, { a: 1 });
    });

    test('leaves a DELETE body unread by default: parsedMethods is POST, PUT and PATCH', async () => {
      const reply = await exchange(version, undefined, {
        method: 'DELETE',
        ...typed('application/json', '{"a":1}'),
      });
      assert.equal(reply.body, UNSET);
    });

    test('parsedMethods names the methods read, in any case', async () => {
      const reply = await exchange(
        version,
        { parsedMethods: ['delete'] },
        {
          method: 'DELETE',
          ...typed('application/json', '{"a":1}'),
        },
      );
      assert.deepEqual(reply.body, { a: 1 });
    });

    test('encoding is the charset of a body whose Content-Type names none', async () => {
      const reply = await exchange(
        version,
        { enableTypes: ['text'], encoding: 'latin1' },
        typed('text/plain', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      );
      assert.equal(reply.body, 'café');
    });

    test('a charset the Content-Type names wins over encoding', async () => {
      const reply = await exchange(
        version,
        undefined,
        typed('application/x-www-form-urlencoded; charset=iso-8859-1', Buffer.from('a=%E9')),
      );
      assert.deepEqual(reply.body, { a: 'é' });
    });

    test('a JSON body in a charset JSON is never sent in (latin1) is a 415', async () => {
      const reply = await exchange(
        version,
        undefined,
        typed('application/json; charset=latin1', '{"a":1}'),
      );
      assert.equal(reply.status, 415);
    });

    test('a form of more pairs than queryString.parameterLimit is a 413, not cut short', async () => {
      const reply = await exchange(
        version,
        { queryString: { parameterLimit: 2 } },
        typed('application/x-www-form-urlencoded', 'a=1&b=2&c=3'),
      );
      assert.equal(reply.status, 413);
    });

    test('keeps a form index past 20 in an array (qs would make an object)', async () => {
      const reply = await exchange(version, undefined, typed(FORM, 'a[25]=x'));
      assert.deepEqual(reply.body, { a: ['x'] });
    });

    test("keeps a form key named like Object.prototype's as the client's data", async () => {
      const reply = await exchange(version, undefined, typed(FORM, 'toString=1&__proto__[x]=2'));
      assert.deepEqual(reply.body, { toString: '1' });
    });

    test('reads an empty JSON body as {} even with jsonStrict: false', async () => {
      const reply = await exchange(version, { jsonStrict: false }, typed('application/json', ''));
      assert.deepEqual([reply.body, reply.rawBody], [{}, '']);
    });

    test('detectJSON reads JSON even where json is not in enableTypes', async () => {
      const reply = await exchange(
        version,
        { enableTypes: ['form'], detectJSON: () => true },
        typed('text/plain', '{"a":1}'),
      );
      assert.deepEqual(reply.body, { a: 1 });
    });

    test("parsedMethods listing GET gives a GET without a body {} (koa-bodyparser 4's rule)", async () => {
      const reply = await exchange(version, { parsedMethods: ['GET'] }, { method: 'GET' });
      assert.deepEqual(reply.body, {});
    });

    test('onError takes the error instead of Koa, and the chain goes on', async () => {
      const seen: unknown[] = [];
      const reply = await exchange(
        version,
        { onError: (err) => void seen.push((err as { type?: unknown }).type) },
        typed('application/json', '{"a":'),
      );
      assert.deepEqual([reply.status, reply.body, seen], [200, UNSET, ['entity.parse.failed']]);
    });

    test("onerror (koa-bodyparser 4's name) takes the error as onError does", async () => {
      const reply = await exchange(
        version,
        { onerror: (_err, ctx) => ctx.throw(422, 'custom') },
        typed('application/json', '{"a":'),
      );
      assert.deepEqual([reply.status, reply.text], [422, 'custom']);
    });

    test('without onError, the error goes to Koa: a 400 with its message', async () => {
      const reply = await exchange(version, undefined, typed('application/json', '{"a":'));
      assert.equal(reply.status, 400);
      assert.match(reply.text, /JSON/);
    });

    test('any truthy ctx.disableBodyParser (a string) leaves the body unread', async () => {
      const disable: KoaMiddleware = async (ctx, next) => {
        ctx.disableBodyParser = '1';
        await next();
      };
      const reply = await exchange(version, undefined, typed('application/json', '{}'), [disable]);
      assert.deepEqual([reply.body, reply.rawBody], [UNSET, UNSET]);
    });

    test('a ctx.request.body set before is kept, the body left unread', async () => {
      const preset: KoaMiddleware = async (ctx, next) => {
        (ctx.request as { body?: unknown }).body = 'preset';
        await next();
      };
      const reply = await exchange(version, undefined, typed('application/json', '{}'), [preset]);
      assert.equal(reply.body, 'preset');
    });

    test('puts the body on ctx.req.body too, for the logger', async () => {
      const reply = await exchange(version, undefined, typed('application/json', '{"a":1}'));
      assert.deepEqual([reply.reqBody, reply.reqRawBody], [{ a: 1 }, UNSET]);
    });

    test("the logger's body fields read what bodyParser read", async () => {
      const capture = captureLines();
      const logger = koa.logger('json', {
        body: { fields: ['user.name'] },
        stream: capture.stream,
      });
      const server = await serveKoa(version, [logger, koa.bodyParser(), echo]);
      try {
        await send(server, { method: 'POST', ...typed(FORM, 'user.name=ann&user.pin=1') });
        const [line] = await capture.waitFor(1);
        assert.deepEqual(JSON.parse(line as string)['http.request.body.fields'], {
          'user.name': 'ann',
        });
      } finally {
        await server.close();
      }
    });

    test('patchNode sets ctx.req.rawBody, and ctx.req.body to {} when nothing was read', async () => {
      const read = await exchange(version, { patchNode: true }, typed('application/json', '{}'));
      const none = await exchange(version, { patchNode: true }, typed('text/plain', 'x'));
      assert.deepEqual([read.reqRawBody, none.reqBody], ['{}', {}]);
    });

    test('enableRawChecking takes a ctx.req.body set before as ctx.request.body', async () => {
      const preset: KoaMiddleware = async (ctx, next) => {
        (ctx.req as { body?: unknown }).body = { earlier: true };
        await next();
      };
      const reply = await exchange(
        version,
        { enableRawChecking: true },
        typed('application/json', '{"a":1}'),
        [preset],
      );
      assert.deepEqual(reply.body, { earlier: true });
    });

    test('answers 499 to a request whose client left before its body was read', async () => {
      const statuses: unknown[] = [];
      let gone: () => void = () => {};
      const left = new Promise<void>((resolve) => {
        gone = resolve;
      });
      const record: KoaMiddleware = async (ctx, next) => {
        try {
          await next();
          statuses.push(ctx.status);
        } catch (err) {
          statuses.push((err as { status?: unknown }).status);
          throw err;
        } finally {
          gone();
        }
      };
      const waitForClose: KoaMiddleware = async (ctx, next) => {
        if (!ctx.req.closed) await new Promise((resolve) => ctx.req.once('close', resolve));
        await next();
      };
      const server = await serveKoa(version, [record, waitForClose, koa.bodyParser(), echo]);
      try {
        await abandon(server, { when: 'body' });
        await left;
        assert.deepEqual(statuses, [499]);
      } finally {
        await server.close();
      }
    });
  });
}
