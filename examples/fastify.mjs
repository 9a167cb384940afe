// Fastify 5 with httpware: one combined line per request (Fastify's own request logging off),
// httpware's parsers in place of Fastify's, and Fastify's default error handler answering
// their errors (a 413 for an over-limit body, counted after inflation; a 422 for a schema).
import Fastify, { LogController } from 'fastify';
import { httpwareLogger, httpwareParsers } from 'httpware/fastify';

// Fastify's logger stays for the application's own records; its two records per request go.
// (Before Fastify 5.12's LogController, the same is the top-level `disableRequestLogging: true`.)
const app = Fastify({
  logger: true,
  logController: new LogController({ disableRequestLogging: true }),
});

await app.register(httpwareLogger, { format: 'combined', requestId: true });
await app.register(httpwareParsers, { json: { limit: '10kb' }, urlencoded: { extended: false } });

app.post('/api/items', async (request, reply) => {
  reply.code(201);
  return { created: request.body };
});

app.post('/login', async (request) => {
  const user = typeof request.body?.user === 'string' ? request.body.user : 'stranger';
  return `hello ${user}\n`;
});

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
process.stdout.write(`fastify example listening on ${address}\n`);
