// The fetch logger's public types, checked by `tsc`: wrapping a handler keeps its exact type
// (Next.js's context, Workers' env and ctx, Deno's info, Bun's server), the middleware fits
// Hono's `app.use`, and tokens on this door are typed over the views. Nothing here is run.
import { Hono } from 'hono';
import type { NextRequest } from 'next/server.js';
import { fetchLogger as rootFetchLogger } from '../../src/index.js';
import { fetchLogger, logger } from '../../src/logger/index.js';
import type {
  FetchHandlerOptions,
  FetchLog,
  FetchLoggerOptions,
  FetchLogRequest,
  FetchLogResponse,
  FetchTokenFn,
  LogRequest,
  LogResponse,
  TokenFn,
} from '../../src/logger/types.js';

/** Names a group of type checks. */
const types = (_name: string, _checks: () => void): void => {};

/** Whether two types are the same (not merely assignable either way). */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equal<A, B>): void => {};

types('fetchLogger', () => {
  types('wrapping keeps the handler type exactly', () => {
    const log: FetchLog = fetchLogger('combined');

    // Next.js App Router: `(request: NextRequest, ctx: { params: Promise<...> })`.
    const GET = async (request: NextRequest, ctx: { params: Promise<{ id: string }> }) =>
      Response.json({ id: (await ctx.params).id, path: request.nextUrl.pathname });
    const loggedGet = log(GET);
    same<typeof loggedGet, typeof GET>(true);

    // Cloudflare Workers: `(request, env, ctx)`.
    interface Env {
      readonly KV: { get(key: string): Promise<string | null> };
    }
    interface ExecutionContext {
      waitUntil(promise: Promise<unknown>): void;
    }
    const worker = {
      fetch: log(async (_request: Request, env: Env, ctx: ExecutionContext) => {
        ctx.waitUntil(env.KV.get('x'));
        return new Response(await env.KV.get('y'));
      }),
    };
    same<Parameters<typeof worker.fetch>, [request: Request, env: Env, ctx: ExecutionContext]>(
      true,
    );

    // Deno: `(request, info)`; Bun: `(request, server)`; a synchronous handler stays one.
    const deno = log((_request: Request, info: { remoteAddr: { hostname: string } }) => {
      return new Response(info.remoteAddr.hostname);
    });
    same<ReturnType<typeof deno>, Response>(true);
    const bun = log((request: Request, server: { requestIP(r: Request): unknown }) => {
      server.requestIP(request);
      return new Response(null);
    });
    void [loggedGet, bun];

    // @ts-expect-error a handler returns a Response
    log((_request: Request) => 'text');
    // @ts-expect-error a handler takes a Request first
    log((_id: number) => new Response(null));
  });

  types("a handler's route keeps the handler type exactly, and is a string", () => {
    const log = fetchLogger('json');
    const GET = async (request: NextRequest, ctx: { params: Promise<{ id: string }> }) =>
      Response.json({ id: (await ctx.params).id, path: request.nextUrl.pathname });
    const routed = log(GET, { route: '/users/[id]' });
    same<typeof routed, typeof GET>(true);
    const options: FetchHandlerOptions = { route: '/users/:id' };
    same<FetchHandlerOptions['route'], string | undefined>(true);
    log(GET, options);
    log(GET, {});
    // @ts-expect-error a route is a string
    log(GET, { route: 42 });
    // @ts-expect-error a route is given in an options object
    log(GET, '/users/[id]');
  });

  types('the middleware fits Hono, and app.fetch can be wrapped', () => {
    const app = new Hono();
    const log = fetchLogger('json', { skip: (_req, res) => res.statusCode === 200 });
    app.use(log.middleware);
    app.use('/api/*', log.middleware);
    const fetch = log(app.fetch);
    same<typeof fetch, typeof app.fetch>(true);
    void rootFetchLogger;
  });

  types('options and tokens are typed over the views', () => {
    const options: FetchLoggerOptions = {
      stream: { write: (_line: string) => true },
      immediate: false,
      redact: { headers: ['x-session'] },
      otel: false,
      errorMessage: 'safe',
      skip: (req, res) => req.request.method === 'OPTIONS' || res.response === undefined,
      remoteAddress: (request) => request.headers.get('fly-client-ip'),
    };
    fetchLogger(':method :url :status', options);
    fetchLogger((tokens, req, res) => `${tokens.method(req, res)} ${req.request.url}`);

    const session: FetchTokenFn = (req) => req.request.headers.get('x-session') ?? undefined;
    logger.token('session', session);
    // A token over the line model works on both doors.
    const both: TokenFn<LogRequest, LogResponse> = (req, res) =>
      `${req.method} ${res.getHeader('content-type') ?? ''}`;
    logger.token('both', both);
    const views = (req: FetchLogRequest, res: FetchLogResponse) =>
      [req.url, req.ip, res.writableFinished, res.getHeader('etag')].join(' ');
    logger.token('views', views);

    fetchLogger('json', { start: true, requestId: true });
    fetchLogger('tiny', { start: ':request-id :method :url' });
    // @ts-expect-error the fetch door has no body option (the Web parsers keep no body)
    fetchLogger('json', { body: { fields: ['user.name'] } });
    // The production controls, the level function over the fetch door's request and response.
    fetchLogger('json', {
      exclude: { paths: ['/health'], methods: ['OPTIONS'], statuses: ['3xx'] },
      sample: { rate: 0.1 },
      slow: 1000,
      level: (req, res) =>
        res.response === undefined ? 'error' : req.request.method === 'HEAD' ? 'silent' : 'info',
    });
    // @ts-expect-error a level function returns a level name
    fetchLogger('json', { level: () => 42 });
    // @ts-expect-error the fetch door has no buffer option
    fetchLogger('tiny', { buffer: true });
    // @ts-expect-error remoteAddress returns the address as text
    fetchLogger('tiny', { remoteAddress: () => 42 });
    // @ts-expect-error a hop count is a number
    fetchLogger('tiny', { trustProxy: { hops: 1 } });
  });
});
