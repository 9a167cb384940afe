// Launchers for the Web app of test/fixtures/web/app.ts: each starts it on 127.0.0.1, port 0,
// on one runtime or framework, and gives its origin and a close. The behaviour suite
// (test/web/suite.ts) takes what they return.
//
// - srvx, @hono/node-server and Hono run in this process (Node);
// - workerd runs the app bundled into one ES module (esbuild, as wrangler does) in miniflare;
// - Bun.serve and Deno.serve run in this process when it is Bun or Deno (test/runtimes/web.ts);
// - Next.js is a child process (`next start`) over test/fixtures/next-app (test/next/).
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { createApp } from '../fixtures/web/app.js';
import { createHonoApp } from '../fixtures/web/hono.js';
import { type FetchAdapter, serveFetch } from './fetch.js';

/** What the suite needs of a running server: where it is, and how to stop it. */
export interface WebServer {
  /** `http://127.0.0.1:port`. */
  readonly origin: string;
  readonly port: number;
  /** Always HTTP/1.1 in the clear: what test/helpers/client.ts's `send` speaks to it. */
  readonly transport: 'http';
  close(): Promise<void>;
}

type Fetch = (request: Request) => Promise<Response>;

const root = new URL('../../', import.meta.url);

function webServer(port: number, close: () => Promise<void>): WebServer {
  return { origin: `http://127.0.0.1:${port}`, port, transport: 'http', close };
}

/** A fetch handler served on Node by one of its adapters (./fetch.ts), as the suite takes it. */
async function onNode(fetch: Fetch, adapter: FetchAdapter): Promise<WebServer> {
  const server = await serveFetch(fetch, adapter);
  return webServer(server.port, () => server.close());
}

/** srvx's `serve` on Node (its node:http adapter). */
export const startSrvx = (): Promise<WebServer> => onNode(createApp().fetch, 'srvx');

/** @hono/node-server on Node, with a plain fetch handler or a Hono app's `fetch`. */
export const startNodeServer = (fetch: Fetch): Promise<WebServer> => onNode(fetch, 'node-server');

export const startHonoOnNode = (logging: 'middleware' | 'fetch') =>
  startNodeServer(createHonoApp(logging).fetch);

/** `zlib`, `node:zlib`, `fs/promises`: a Node built-in module's name, as code may write it. */
const NODE_BUILTIN = new RegExp(
  `^(?:node:)?(?:${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`,
);

/**
 * A require of a Node built-in in a CommonJS module (httpware's dist/index.cjs) becomes an ES
 * import: esbuild's ESM output would otherwise keep `require`, which workerd has not.
 */
const nodeBuiltinsAsImports = {
  name: 'node-builtins-as-imports',
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string; kind: string }) => object | undefined,
    ): void;
    onLoad(
      options: { filter: RegExp; namespace: string },
      callback: (args: { path: string }) => object,
    ): void;
  }) {
    build.onResolve({ filter: NODE_BUILTIN }, (args) => {
      const path = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      return args.kind === 'require-call'
        ? { path, namespace: 'node-builtin' }
        : { path, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `import * as m from '${args.path}'; export default m; export * from '${args.path}';`,
    }));
  },
};

/** The worker entry of test/fixtures/web, bundled into one ES module's source. */
export async function bundleWorker(
  entry = new URL('test/fixtures/web/worker.ts', root),
): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry.pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import', 'require'],
    write: false,
    logLevel: 'silent',
    plugins: [nodeBuiltinsAsImports],
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error('esbuild wrote no bundle');
  return file.text;
}

export interface WorkerdOptions {
  /** Default `['nodejs_compat']`; `[]` shows what the app needs it for. */
  compatibilityFlags?: string[];
  /** Another worker module's source than the app's bundle. */
  script?: string;
  /** The worker's `env`: wrangler's `vars`. */
  bindings?: Record<string, string>;
  /** Everything workerd writes to its standard output (the worker's `process.stdout`). */
  onOutput?: (text: string) => void;
}

/** The app bundled as a Cloudflare Worker, served by workerd through miniflare. */
export async function startWorkerd(options: WorkerdOptions = {}): Promise<WebServer> {
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    // A module with a path: workerd itself then resolves its imports (`node:zlib`), so a
    // missing one is workerd's own error, not miniflare's refusal of imports in a string.
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: options.script ?? (await bundleWorker()) },
    ],
    compatibilityDate: '2026-07-01',
    compatibilityFlags: options.compatibilityFlags ?? ['nodejs_compat'],
    bindings: options.bindings ?? {},
    host: '127.0.0.1',
    port: 0,
    ...(options.onOutput === undefined
      ? {}
      : {
          handleRuntimeStdio: (stdout: Readable) => {
            stdout.setEncoding('utf8').on('data', options.onOutput ?? (() => {}));
          },
        }),
  });
  const url = await mf.ready;
  return webServer(Number(url.port), () => mf.dispose());
}

/** A port nothing listens on now: for servers that cannot be told port 0 and report it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}
interface DenoServer {
  readonly addr: { port: number };
  shutdown(): Promise<void>;
}

/** `Bun.serve`, when this process is Bun. */
export async function startBunServe(fetch: Fetch): Promise<WebServer> {
  const bun = (globalThis as { Bun?: { serve(o: object): BunServer } }).Bun;
  if (bun === undefined) throw new Error('Bun.serve: not running on Bun');
  const server = bun.serve({ fetch, hostname: '127.0.0.1', port: 0 });
  return webServer(server.port, async () => {
    await server.stop(true);
  });
}

/** `Deno.serve`, when this process is Deno. */
export async function startDenoServe(fetch: Fetch): Promise<WebServer> {
  const deno = (globalThis as { Deno?: { serve(o: object, h: Fetch): DenoServer } }).Deno;
  if (deno === undefined) throw new Error('Deno.serve: not running on Deno');
  const server = deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, fetch);
  return webServer(server.addr.port, () => server.shutdown());
}
