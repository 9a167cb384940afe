// A small JSON API on Bun.serve: POST /items takes `{ name, quantity }`, checked by a zod
// schema while the body is read (under a 10 KB limit), and answers 201 with the new item.
// A body that is too large, not JSON, not `application/json` or not an item is answered by
// `toResponse` as application/problem+json (413, 400, 415, 422). Every request is logged in
// the `combined` format, with secret query parameters (`?token=...`) masked.
//
//   bun examples/web/bun.ts
//   curl -X POST 'localhost:3000/items?token=s3cret' -H 'content-type: application/json' \
//     -d '{"name":"lamp","quantity":2}'
import { fetchLogger } from 'httpware/logger';
import { json, toResponse } from 'httpware/parsers';
import { z } from 'zod';

const Item = z.object({ name: z.string().min(1), quantity: z.number().int().positive() });

const log = fetchLogger('combined');

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method !== 'POST' || pathname !== '/items') {
    return new Response('not found\n', { status: 404 });
  }
  try {
    const item = await json.read(request, { schema: Item, limit: '10kb' });
    return Response.json({ id: crypto.randomUUID(), ...item }, { status: 201 });
  } catch (err) {
    return toResponse(err);
  }
}

// The wrapped handler still takes Bun's `(request, server)`: the logger reads the client's
// address from `server.requestIP(request)`.
const server = Bun.serve({ port: Number(Bun.env.PORT ?? 3000), fetch: log(handle) });

console.log(`Bun example listening on http://localhost:${server.port}`);
