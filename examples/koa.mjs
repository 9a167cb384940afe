// Koa (2 or 3) with httpware: `httpware/koa` gives the logger and the body parsers as Koa
// middleware. Errors the parsers throw carry `status` and `expose`, so Koa's own error
// response answers them: the status and message of a 4xx, the status text of a 5xx.

import { json, logger, urlencoded } from 'httpware/koa';
import Koa from 'koa';

const app = new Koa();

// First, so its line has what Koa finally sent, errors included.
app.use(logger('combined'));
app.use(json({ limit: '10kb' }));
app.use(urlencoded({ extended: false }));

app.use(async (ctx) => {
  if (ctx.method === 'POST' && ctx.path === '/api/items') {
    ctx.status = 201;
    ctx.body = { created: ctx.request.body };
  } else if (ctx.method === 'POST' && ctx.path === '/login') {
    ctx.body = `hello ${ctx.request.body?.user ?? 'stranger'}\n`;
  } else if (ctx.path === '/private') {
    ctx.throw(403, 'members only');
  }
});

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`koa example listening on http://localhost:${server.address().port}\n`);
});
