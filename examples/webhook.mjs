// A signed webhook: the sender signs the exact bytes it sends with a shared secret, so the
// HMAC is checked in `verify`, over the raw bytes (after inflation), before anything is parsed:
// a forged body is refused without ever reaching JSON.parse, and the parsed `req.body` is
// exactly what was signed. Start it with a secret of your own:
//   WEBHOOK_SECRET=$(openssl rand -hex 32) node examples/webhook.mjs
// and sign a test request with:
//   body='{"event":"ping"}'
//   sig=$(printf %s "$body" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | cut -d' ' -f2)
//   curl -X POST localhost:3000/webhook -H 'content-type: application/json' \
//     -H "x-signature: sha256=$sig" -d "$body"
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { logger, parsers } from 'httpware';

// No default: a secret written in an example is known to everyone who read it.
const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  process.stderr.write('set WEBHOOK_SECRET to the secret shared with the sender\n');
  process.exit(1);
}

/** Throws a 401 unless `x-signature` is `sha256=<hex HMAC of the bytes>`, compared in constant time. */
function checkSignature(req, _res, bytes) {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`,
  );
  const given = Buffer.from(String(req.headers['x-signature'] ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    // The parser keeps a thrown error's own status: 401 rather than verify's default 403.
    throw Object.assign(new Error('bad signature'), { status: 401 });
  }
}

const log = logger('tiny');
const json = parsers.json({ verify: checkSignature });

const server = http.createServer((req, res) => {
  log(req, res, () =>
    json(req, res, (err) => {
      if (err) {
        res.statusCode = err.status ?? 500;
        return res.end(`${err.type ?? 'error'}: ${err.expose ? err.message : 'failed'}\n`);
      }
      if (req.body === undefined) {
        res.statusCode = 415;
        return res.end('send a signed application/json body\n');
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ accepted: req.body.event ?? null }));
    }),
  );
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`webhook example listening on http://localhost:${server.address().port}\n`);
});
