import { defineConfig } from 'tsup';

// One implementation, built once as CommonJS (dist/index.cjs). The files in entries/ give it
// its public shapes: `require('httpware/logger')` is the logger function itself (as
// `require('morgan')` is), and the ESM entries re-export the same objects, so an application
// that mixes `import` and `require` still has one token registry and one format registry.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['cjs'],
  target: 'node18',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: false,
  treeshake: true,
  // No `import.meta.url` shim: src/optional-peer.ts uses the CommonJS build's own `require`.
  shims: false,
  // Nor Rollup's: for `import.meta.url` (src/optional-peer.ts, whose CommonJS path uses
  // `require`) it reads `document.currentScript` when the module loads, a global that test
  // environments such as Jest's jsdom have and Node has not. Loading touches no global.
  define: { 'import.meta.url': 'undefined' },
});
