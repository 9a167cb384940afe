// The example server behind `npm start`: plain node:http, the `dev` logger and the parsers.
// It imports the built package by name, exactly as an application would.
import http from 'node:http';
import { logger, parsers } from 'httpware';

const port = Number(process.env.PORT ?? 3000);

const log = logger('dev');
const json = parsers.json();
const form = parsers.urlencoded({ extended: true });
const text = parsers.text();

/** Answers with a Content-Length, as frameworks do, so the log line shows the size. */
function reply(res, status, type, body) {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/** Runs middleware in order, like a framework would, then the handler. */
function chain(middleware, handler) {
  return (req, res) => {
    let index = 0;
    const next = (err) => {
      if (err) {
        res.statusCode = err.status ?? 500;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            error: err.type ?? 'internal',
            message: err.expose ? err.message : 'error',
          }),
        );
        return;
      }
      const mw = middleware[index++];
      if (mw) mw(req, res, next);
      else handler(req, res);
    };
    next();
  };
}

const routes = {
  'GET /': (_req, res) =>
    reply(
      res,
      200,
      'text/plain; charset=utf-8',
      'httpware example: POST /echo with JSON, a form or text\n',
    ),
  'POST /echo': (req, res) =>
    reply(res, 200, 'application/json', JSON.stringify({ body: req.body ?? null })),
  'GET /error': (_req, res) => reply(res, 500, 'text/plain; charset=utf-8', 'something broke\n'),
};

const server = http.createServer(
  chain([log, json, form, text], (req, res) => {
    const route = routes[`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`];
    if (route) return route(req, res);
    reply(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }),
);

server.listen(port, () => {
  // PORT=0 asks the system for a free port: print the one actually bound.
  const base = `http://localhost:${server.address().port}`;
  process.stdout.write(
    [
      `httpware example listening on ${base}`,
      '',
      'Try:',
      `  curl ${base}/`,
      `  curl -X POST ${base}/echo -H 'content-type: application/json' -d '{"hello":"world"}'`,
      `  curl -X POST ${base}/echo -d 'user[name]=ada&user[langs][]=js'`,
      `  curl -X POST ${base}/echo -H 'content-type: text/plain' -d 'plain text'`,
      `  curl -X POST ${base}/echo -H 'content-type: application/json' -d '{"bad json'`,
      `  curl ${base}/error`,
      '',
    ].join('\n'),
  );
});
