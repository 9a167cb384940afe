// The bench measures what a user installs: the built package through its public ESM entry
// (entries/index.mjs -> dist/index.cjs). `npm run build` at the root produces dist/.
//
// A run first copies entries/ and dist/ into bench/.snapshot/, and every worker imports the
// copy: all rounds measure one build, even if someone rebuilds (tsup cleans dist/) meanwhile.
// bench/.snapshot/node_modules links to the root's node_modules, so the copy resolves its
// runtime dependencies (qs, iconv-lite, ...) exactly as the package does, never bench's own.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
const snapshot = new URL('../.snapshot/', import.meta.url);
const path = (url) => fileURLToPath(url);

export function httpwareBuilt() {
  return existsSync(path(new URL('dist/index.cjs', root)));
}

/** Copies the current build; returns a short hash of dist/index.cjs to name it in reports. */
export function snapshotHttpware() {
  rmSync(path(snapshot), { recursive: true, force: true });
  mkdirSync(path(snapshot), { recursive: true });
  for (const dir of ['dist', 'entries']) {
    cpSync(path(new URL(dir, root)), path(new URL(dir, snapshot)), { recursive: true });
  }
  symlinkSync('../../node_modules', path(new URL('node_modules', snapshot)), 'dir');
  const code = readFileSync(path(new URL('dist/index.cjs', snapshot)));
  return createHash('sha256').update(code).digest('hex').slice(0, 12);
}

export async function loadHttpware() {
  const fromSnapshot = new URL('entries/index.mjs', snapshot);
  if (existsSync(path(fromSnapshot))) return import(fromSnapshot.href);
  if (!httpwareBuilt()) {
    throw new Error('httpware is not built: run `npm run build` at the repository root');
  }
  return import(new URL('entries/index.mjs', root).href);
}
