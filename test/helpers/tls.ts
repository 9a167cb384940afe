import { readFileSync } from 'node:fs';

const dir = new URL('../fixtures/tls/', import.meta.url);

/** A self-signed certificate for 127.0.0.1 (valid for 100 years), for HTTPS tests only. */
export function tlsCredentials(): { key: Buffer; cert: Buffer } {
  return {
    key: readFileSync(new URL('key.pem', dir)),
    cert: readFileSync(new URL('cert.pem', dir)),
  };
}
