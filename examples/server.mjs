// The example server behind `npm start`: plain node:http, the `dev` logger and the parsers.
// It imports the built package by name, exactly as an application would.
import http from 'node:http';
import { logger, parsers } from 'httpware';

const port = Number(process.env.PORT ?? 3000);

const log = logger('dev');
const json = parsers.json();
const form = parsers.urlencoded({ extended: true });
const text = parsers.text();

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
  'GET /': (_req, res) => {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end('httpware example: try POST /echo with JSON, a form or text\n');
  },
  'POST /echo': (req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ body: req.body ?? null }));
  },
  'GET /error': (_req, res) => {
    res.statusCode = 500;
    res.end('something broke\n');
  },
};

const server = http.createServer(
  chain([log, json, form, text], (req, res) => {
    const route = routes[`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`];
    if (route) return route(req, res);
    res.statusCode = 404;
    res.end('not found\n');
  }),
);

server.listen(port, () => {
  const base = `http://localhost:${port}`;
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
