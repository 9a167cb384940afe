// The bench measures what a user installs: the built package through its public ESM entry
// (entries/index.mjs -> dist/index.cjs). `npm run build` at the root produces dist/.
//
// A run first copies entries/ and dist/ into bench/.snapshot/ (or, with --build, builds src/
// straight into it), and every worker imports the copy: all rounds measure one build, even if
// someone rebuilds (tsup cleans dist/) meanwhile.
// bench/.snapshot/node_modules links to the root's node_modules, so the copy resolves its
// runtime dependencies (qs, iconv-lite, ...) exactly as the package does, never bench's own.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
const snapshot = new URL('../.snapshot/', import.meta.url);
const path = (url) => fileURLToPath(url);

export function httpwareBuilt() {
  return existsSync(path(new URL('dist/index.cjs', root)));
}

/**
 * Copies the current build; returns a short hash of dist/index.cjs to name it in reports.
 * A build in progress (tsup cleans dist/ first) shows as a missing or unloadable copy: wait
 * and copy again.
 */
export async function snapshotHttpware({ fromSource = false } = {}) {
  for (let attempt = 1; ; attempt++) {
    rmSync(path(snapshot), { recursive: true, force: true });
    mkdirSync(path(snapshot), { recursive: true });
    try {
      cpSync(path(new URL('entries', root)), path(new URL('entries', snapshot)), {
        recursive: true,
      });
      if (fromSource) {
        // The root's own build (tsup.config.ts), written into the snapshot: the root's dist/,
        // which tests may be loading right now, is left alone.
        execFileSync('npx', ['tsup', '--out-dir', path(new URL('dist', snapshot))], {
          cwd: path(root),
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      } else {
        cpSync(path(new URL('dist', root)), path(new URL('dist', snapshot)), { recursive: true });
      }
      symlinkSync('../../node_modules', path(new URL('node_modules', snapshot)), 'dir');
      const copy = path(new URL('dist/index.cjs', snapshot));
      const { logger, parsers } = createRequire(import.meta.url)(copy);
      if (typeof logger !== 'function' || typeof parsers?.json !== 'function') {
        throw new Error('dist/index.cjs lacks logger or parsers');
      }
      return createHash('sha256').update(readFileSync(copy)).digest('hex').slice(0, 12);
    } catch (err) {
      if (attempt === 5) throw new Error(`cannot snapshot the httpware build: ${err.message}`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

export async function loadHttpware() {
  // Another build (a patched copy, an older commit) can be measured by pointing at its entry.
  if (process.env.HTTPWARE_BENCH_ENTRY)
    return import(pathToFileURL(process.env.HTTPWARE_BENCH_ENTRY).href);
  const fromSnapshot = new URL('entries/index.mjs', snapshot);
  if (existsSync(path(fromSnapshot))) return import(fromSnapshot.href);
  if (!httpwareBuilt()) {
    throw new Error('httpware is not built: run `npm run build` at the repository root');
  }
  return import(new URL('entries/index.mjs', root).href);
}
