// A signed webhook: the sender signs the exact bytes it sends with a shared secret, so the
// HMAC is checked in `verify`, over the raw bytes (after inflation), before anything is parsed:
// a forged body is refused without ever reaching JSON.parse, and the parsed `req.body` is
// exactly what was signed. The check is WebCrypto's `crypto.subtle.verify`, which is async
// (and compares in constant time): `verify` returns its promise, which the parser awaits.
// Start it with a secret of your own:
//   WEBHOOK_SECRET=$(openssl rand -hex 32) node examples/webhook.mjs
// and sign a test request with:
//   body='{"event":"ping"}'
//   sig=$(printf %s "$body" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" | cut -d' ' -f2)
//   curl -X POST localhost:3000/webhook -H 'content-type: application/json' \
//     -H "x-signature: sha256=$sig" -d "$body"
import http from 'node:http';
import { logger, parsers } from 'httpware';

// No default: a secret written in an example is known to everyone who read it.
const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  process.stderr.write('set WEBHOOK_SECRET to the secret shared with the sender\n');
  process.exit(1);
}

// Imported once; WebCrypto keeps the secret out of reach of the rest of the program.
const key = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(secret),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);

/** `sha256=<64 hex digits>` as the bytes of the signature, or null for anything else. */
function signatureOf(header) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(String(header ?? ''));
  return match ? Buffer.from(match[1], 'hex') : null;
}

/** Rejects with a 401 unless `x-signature` is the HMAC-SHA256 of the bytes. */
async function checkSignature(req, _res, bytes) {
  const signature = signatureOf(req.headers['x-signature']);
  const valid = signature !== null && (await crypto.subtle.verify('HMAC', key, signature, bytes));
  if (!valid) {
    // The parser keeps a rejected error's own status: 401 rather than verify's default 403.
    throw Object.assign(new Error('bad signature'), { status: 401 });
  }
}

const log = logger('tiny');
// A signature check that hangs (it never does here) would be given up on after 2 seconds.
const json = parsers.json({ verify: checkSignature, verifyTimeout: 2000 });

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
