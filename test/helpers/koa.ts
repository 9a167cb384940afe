// Koa 3 (`koa`) and Koa 2 (`koa2`, the same package at 2.x) servers on 127.0.0.1:0, for the
// httpware/koa suites: a test builds its middleware list and runs it on both.
import { createRequire } from 'node:module';
import Koa from 'koa';
import { serve, type TestServer, type Transport } from './server.js';

const require = createRequire(import.meta.url);
// Koa 2 has no types of its own; its API is the part of Koa 3's that these tests use.
const Koa2 = require('koa2') as typeof Koa;

export type KoaVersion = 'koa3' | 'koa2';
export const koaVersions: readonly KoaVersion[] = ['koa3', 'koa2'];

export type KoaApp = Koa;
export type KoaMiddleware = Koa.Middleware;

/**
 * Serves a Koa app of `version` running `middleware` in order, over `transport` (`h2c`:
 * `app.callback()` on `http2.createServer`). The app is silent (Koa's default listener prints
 * every error not exposed otherwise); `errors` collects what Koa's 'error' event saw.
 */
export async function serveKoa(
  version: KoaVersion,
  middleware: readonly KoaMiddleware[],
  setup: (app: KoaApp) => void = () => {},
  transport: Transport = 'http',
): Promise<TestServer & { readonly errors: unknown[] }> {
  const app = version === 'koa3' ? new Koa() : new Koa2();
  app.silent = true;
  const errors: unknown[] = [];
  app.on('error', (err: unknown) => errors.push(err));
  setup(app);
  for (const mw of middleware) app.use(mw);
  const server = await serve(app.callback(), transport);
  return Object.assign(server, { errors });
}
