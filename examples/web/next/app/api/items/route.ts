// A Next.js App Router route handler: POST /api/items takes `{ name, quantity }`, checked by a
// zod schema while the body is read (under a 10 KB limit; Next.js itself sets none on route
// handlers), and answers 201 with the new item. Bad bodies are answered by `toResponse` as
// application/problem+json (413, 400, 415, 422). Next.js writes no access log: the wrapper
// writes one JSON line per request to the server's output, with secret query parameters
// masked (`?token=...` is written `token=REDACTED`).
//
// In a Next.js app (`npx create-next-app`, then `npm install httpware zod`), this file is
// app/api/items/route.ts; `npx next dev` serves it.
import { fetchLogger } from 'httpware/logger';
import { json, toResponse } from 'httpware/parsers';
import { z } from 'zod';

const Item = z.object({ name: z.string().min(1), quantity: z.number().int().positive() });

const log = fetchLogger('json');

export const POST = log(async (request: Request): Promise<Response> => {
  try {
    const item = await json.read(request, { schema: Item, limit: '10kb' });
    return Response.json({ id: crypto.randomUUID(), ...item }, { status: 201 });
  } catch (err) {
    return toResponse(err);
  }
});
