// A signed webhook: check an HMAC over the exact bytes received (`rawBody: true`), in constant
// time, before trusting the parsed body. Sign a test request with:
//   body='{"event":"ping"}'
//   sig=$(printf %s "$body" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | cut -d' ' -f2)
//   curl -X POST localhost:3000/webhook -H 'content-type: application/json' \
//     -H "x-signature: sha256=$sig" -d "$body"
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { logger, parsers } from 'httpware';

const secret = process.env.WEBHOOK_SECRET ?? 'dev-secret';
const log = logger('tiny');
const json = parsers.json({ rawBody: true });

function signatureMatches(req) {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(req.rawBody).digest('hex')}`,
  );
  const given = Buffer.from(String(req.headers['x-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = http.createServer((req, res) => {
  log(req, res, () =>
    json(req, res, (err) => {
      if (err) {
        res.statusCode = err.status ?? 500;
        return res.end(`${err.type}\n`);
      }
      if (!req.rawBody || !signatureMatches(req)) {
        res.statusCode = 401;
        return res.end('bad signature\n');
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ accepted: req.body.event ?? null }));
    }),
  );
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`webhook example listening on http://localhost:${server.address().port}\n`);
});
