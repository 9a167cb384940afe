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
      const raw: Buffer | undefined = ctx.request.rawBody;
      // @ts-expect-error rawBody is a Buffer (koa-bodyparser's is a string)
      const text: string = ctx.request.rawBody;
      ctx.body = { body, name, raw, text };
    });
  });

  types('misuse is refused', () => {
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
