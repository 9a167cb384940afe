// Completes package-lock.json after `npm install`: run `node scripts/complete-lockfile.mjs`.
//
// Why: the npm registry reachable from this project's machines answers 404 for the
// other-platform builds of native tools (@esbuild/darwin-x64, @biomejs/cli-win32-x64, ...).
// npm then leaves those optional packages out of the lockfile, and `npm ci` refuses a lockfile
// that lacks any optional dependency. An entry with only a version satisfies `npm ci`, which
// skips optional packages it cannot or need not install. Nothing else in the lockfile changes.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

/** Where npm would look for `name` required from `path`: nested first, then up to the top. */
function isPresent(path, name) {
  let dir = path;
  for (;;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const at = dir.lastIndexOf('node_modules/');
    dir = at <= 0 ? '' : dir.slice(0, at - 1);
  }
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    if (isPresent(path, name)) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
    };
    added += 1;
  }
}

if (process.argv.includes('--check')) {
  if (added > 0) {
    console.error(
      `package-lock.json lacks ${added} optional platform package(s): run node scripts/complete-lockfile.mjs`,
    );
    process.exit(1);
  }
} else {
  const sorted = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) =>
      a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
    ),
  );
  lock.packages = sorted;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(
    `package-lock.json: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`,
  );
}
