// A small JSON API on Deno.serve: POST /items takes `{ name, quantity }`, checked by a zod
// schema while the body is read (under a 10 KB limit), and answers 201 with the new item.
// Bad bodies are answered by `toResponse` as application/problem+json (413, 400, 415, 422).
// Every request is logged in the `combined` format, with secret query parameters masked
// (`?token=...` is written `?token=REDACTED`).
//
//   deno run --allow-net --allow-env examples/web/deno.ts
//   curl -X POST 'localhost:8000/items?token=s3cret' -H 'content-type: application/json' \
//     -d '{"name":"lamp","quantity":2}'
import { fetchLogger } from 'httpware/logger';
import { json, toResponse } from 'httpware/parsers';
import { z } from 'zod';

const Item = z.object({ name: z.string().min(1), quantity: z.number().int().positive() });

// The client's address comes from the handler's second argument, Deno's `info.remoteAddr`.
const log = fetchLogger('combined');

Deno.serve(
  {
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ port }) => console.log(`Deno example listening on http://localhost:${port}`),
  },
  log(async (request: Request) => {
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
  }),
);
