// httpware/koa's public types, checked by `tsc` (each `@ts-expect-error` fails the type check
// if the misuse compiles). Not a test file: nothing here is run. The entry's augmentation of
// Koa's Request is loaded as the entry's declarations load it.
/// <reference path="../../entries/koa-request.d.ts" />
import { createRequire } from 'node:module';
import Koa from 'koa';
import * as v from 'valibot';
import { type KoaMiddleware, koa } from '../../src/index.js';

const types = (_name: string, _checks: () => void): void => {};

types('httpware/koa', () => {
  types('every factory makes middleware a Koa 3 app takes', () => {
    const app = new Koa();
    app.use(koa.logger('dev'));
    app.use(koa.logger(':method :url :status', { immediate: true, stream: process.stdout }));
    app.use(koa.logger((tokens, req, res) => `${tokens.method?.(req, res)} ${res.statusCode}`));
    app.use(koa.json({ limit: '1mb', strict: true, rawBody: true }));
    app.use(koa.urlencoded({ extended: true, parameterLimit: 100 }));
    app.use(koa.text({ defaultCharset: 'latin1' }));
    app.use(koa.raw({ type: 'application/octet-stream', inflate: false }));
    app.use(koa.json({ schema: v.object({ id: v.number() }) }));
  });

  types('a Koa 2 app (same API) takes them too', () => {
    const Koa2 = createRequire(import.meta.url)('koa2') as typeof Koa;
    new Koa2().use(koa.json()).use(koa.logger('tiny'));
  });

  types('ctx.request.body and rawBody are typed by the augmentation', () => {
    const app = new Koa();
    app.use(async (ctx) => {
      const body: unknown = ctx.request.body;
      // @ts-expect-error the body is unknown until checked (or given a schema)
      const name: string = ctx.request.body.name;
      const raw: string | Buffer | undefined = ctx.request.rawBody;
      // @ts-expect-error rawBody may be absent, and a Buffer from a parser with rawBody: true
      const text: string = ctx.request.rawBody;
      ctx.body = { body, name, raw, text };
    });
  });

  types("bodyParser takes @koa/bodyparser's options, and koa-bodyparser 4's names", () => {
    const app = new Koa();
    app.use(
      koa.bodyParser({
        enableTypes: ['json', 'form', 'text', 'xml'],
        extendTypes: { json: ['application/x-javascript'], text: 'text/html' },
        jsonLimit: '2mb',
        formLimit: 1024,
        textLimit: '1mb',
        xmlLimit: '1mb',
        encoding: 'utf-8',
        jsonStrict: false,
        detectJSON: (ctx) => ctx.path.endsWith('.json'),
        onError: (err, ctx) => ctx.throw(422, err.message),
        parsedMethods: ['POST', 'DELETE'],
        patchNode: true,
        enableRawChecking: true,
        queryString: { depth: 3, parameterLimit: 100, allowDots: false },
      }),
    );
    app.use(koa.bodyParser({ strict: false, onerror: (_err, ctx) => ctx.throw(400) }));
    // Koa's own context type, where the application annotates it.
    app.use(koa.bodyParser({ detectJSON: (ctx: Koa.Context) => ctx.is('json') === 'json' }));
    new (createRequire(import.meta.url)('koa2') as typeof Koa)().use(koa.bodyParser());
  });

  types('misuse is refused', () => {
    // @ts-expect-error yaml is no kind of body bodyParser reads
    koa.bodyParser({ enableTypes: ['yaml'] });
    // @ts-expect-error detectJSON answers a boolean
    koa.bodyParser({ detectJSON: () => 'yes' });
    // @ts-expect-error queryString takes qs's depth, parameterLimit and allowDots only
    koa.bodyParser({ queryString: { arrayLimit: 100 } });
    // @ts-expect-error a logger needs a format
    koa.logger();
    // @ts-expect-error limit is a number or a size string
    koa.json({ limit: true });
    // @ts-expect-error urlencoded's options are not json's
    koa.urlencoded({ strict: true });
    const mw: KoaMiddleware = koa.text();
    // @ts-expect-error Koa middleware take (ctx, next), not (req, res, next)
    mw({} as import('node:http').IncomingMessage, {} as never, () => {});
  });
});
