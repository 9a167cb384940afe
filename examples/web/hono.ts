// A small JSON API in Hono: POST /items takes `{ name, quantity }`, checked by a zod schema
// while the body is read (under a 10 KB limit), and answers 201 with the new item. A bad body
// throws httpware's typed error; `app.onError` answers it with `toResponse`, as
// application/problem+json (413, 400, 415, 422). The logger is `app.use` middleware: one
// `combined` line per request, with secret query parameters (`?token=...`) masked.
// Served by @hono/node-server, so it runs on Node and on Bun alike:
//
//   npx tsx examples/web/hono.ts        (Node)
//   bun examples/web/hono.ts            (Bun)
//   curl -X POST 'localhost:3000/items?token=s3cret' -H 'content-type: application/json' \
//     -d '{"name":"lamp","quantity":2}'
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { fetchLogger } from 'httpware/logger';
import { json, toResponse } from 'httpware/parsers';
import { z } from 'zod';

const Item = z.object({ name: z.string().min(1), quantity: z.number().int().positive() });

const log = fetchLogger('combined');
const app = new Hono();

app.use(log.middleware);

app.post('/items', async (c) => {
  // `c.req.raw` is the Web Request: httpware reads its body once, bounded and typed.
  const item = await json.read(c.req.raw, { schema: Item, limit: '10kb' });
  return c.json({ id: crypto.randomUUID(), ...item }, 201);
});

// An error that is not httpware's becomes a bare 500, with nothing of it in the answer.
app.onError((err) => toResponse(err));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, ({ port }) => {
  console.log(`Hono example listening on http://localhost:${port}`);
});
