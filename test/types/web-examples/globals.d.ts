// The globals the Web examples use that neither TypeScript nor @types/node declares: a Bun,
// Deno or Workers project has them from `@types/bun`, Deno's built-in types or
// `@cloudflare/workers-types`. Declared here, as far as the examples use them and with the
// same shapes, so the examples compile unchanged in a strict project (test/examples/web.test.ts).

interface BunServeOptions {
  port?: number;
  hostname?: string;
  fetch(
    request: Request,
    server: { requestIP(request: Request): unknown },
  ): Response | Promise<Response>;
}

declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: BunServeOptions): { readonly port: number; readonly url: URL };
};

declare namespace Deno {
  interface ServeHandlerInfo {
    readonly remoteAddr: { readonly hostname: string; readonly port: number };
  }
  interface ServeOptions {
    port?: number;
    hostname?: string;
    onListen?: (address: { hostname: string; port: number }) => void;
  }
  const env: { get(name: string): string | undefined };
  function serve(
    options: ServeOptions,
    handler: (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>,
  ): { readonly finished: Promise<void> };
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}

interface ExportedHandler<Env = unknown> {
  fetch?: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
}
