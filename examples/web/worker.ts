// A small JSON API as a Cloudflare Worker: POST /items takes `{ name, quantity }`, checked by
// a zod schema while the body is read, under the limit set by the `BODY_LIMIT` variable of
// wrangler.json, and answers 201 with the new item. Bad bodies are answered by `toResponse` as
// application/problem+json (413, 400, 415, 422). Every request is logged as one JSON line
// (what Workers Logs and `wrangler tail` show), with secret query parameters masked.
// httpware's build imports Node's modules (`node:zlib`...): the Worker needs `nodejs_compat`.
//
//   npx wrangler dev -c examples/web/wrangler.json
//
// `Env` is what wrangler.json binds; `ExecutionContext` and `ExportedHandler` are the global
// types of `@cloudflare/workers-types` (or of the file `wrangler types` writes).
import { fetchLogger } from 'httpware/logger';
import { json, toResponse } from 'httpware/parsers';
import { z } from 'zod';

export interface Env {
  /** The largest body accepted, as `'10kb'`. */
  readonly BODY_LIMIT: string;
}

const Item = z.object({ name: z.string().min(1), quantity: z.number().int().positive() });

// `:remote-addr` and `client.address` come from the `CF-Connecting-IP` header workerd sets.
const log = fetchLogger('json');

export default {
  fetch: log(async (request: Request, env: Env, _ctx: ExecutionContext): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (request.method !== 'POST' || pathname !== '/items') {
      return new Response('not found\n', { status: 404 });
    }
    try {
      const item = await json.read(request, { schema: Item, limit: env.BODY_LIMIT });
      return Response.json({ id: crypto.randomUUID(), ...item }, { status: 201 });
    } catch (err) {
      return toResponse(err);
    }
  }),
} satisfies ExportedHandler<Env>;
