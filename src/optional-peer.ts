// An optional peer dependency (@opentelemetry/api, @opentelemetry/api-logs), loaded the first
// time it is needed and resolved from this package, as a dependency of httpware would be.
//
// The CommonJS build (what every entry loads) has its own `require`; the sources, run as ES
// modules by the tests, have `import.meta.url`. Neither is evaluated before the first call:
// tsup's `import.meta.url` shim for CommonJS reads `__filename` when the module loads, which
// Cloudflare's workerd does not define, so a build with the shim could not even be imported
// there; and Rollup's reads `document` (jsdom's, under Jest), so the build defines
// `import.meta.url` away (tsup.config.ts): its path is never taken there.

import { createRequire } from 'node:module';

export function loadOptionalPeer(name: string): unknown {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  return load(name);
}
