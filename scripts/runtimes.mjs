#!/usr/bin/env node
// Fetches the runtimes CI tests on, from the npm registry, into a cache kept between runs:
//
//   node scripts/runtimes.mjs node@22 bun@1 deno@2    prints each one's executable, one a line
//
// Each runtime is published as a package per platform holding its executable (Node's official
// binaries as node-<os>-<arch>, Bun's as @oven/bun-<os>-<arch>, Deno's as @deno/<os>-<arch>),
// so it is fetched with `npm pack` (no install script runs) and unpacked as it is. The newest
// version of the asked major is used; once unpacked it is kept in
// $HTTPWARE_RUNTIMES (default ~/.cache/httpware/runtimes/<package>-<version>/) and found there
// again without unpacking, so a second run asks the registry only which version is newest.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const cacheDir = process.env.HTTPWARE_RUNTIMES ?? join(homedir(), '.cache/httpware/runtimes');

/** Each runtime's package for this platform, and where its executable is inside it. */
const KINDS = {
  node: { package: `node-${process.platform}-${process.arch}`, executable: 'bin/node' },
  bun: { package: `@oven/bun-${process.platform}-${process.arch}`, executable: 'bin/bun' },
  deno: {
    package: `@deno/${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}`,
    executable: 'deno',
  },
};

/** `npm`'s answer on stdout; what it says on stderr is shown only when it fails. */
function npm(args) {
  try {
    return execFileSync('npm', [...args, '--loglevel=error', '--no-update-notifier'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw new Error(`npm ${args.join(' ')} failed:\n${err.stderr ?? err.message}`);
  }
}

const compareVersions = (a, b) => {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/** The newest published version of `name` in the major `major`. */
function newestOf(name, major) {
  const answer = JSON.parse(npm(['view', `${name}@${major}`, 'version', '--json']));
  const versions = [answer].flat().filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  if (versions.length === 0) throw new Error(`no release of ${name}@${major} in the registry`);
  return versions.sort(compareVersions).at(-1);
}

/**
 * The path of the executable of `kind` (node, bun, deno) at the newest `major`, fetched and
 * unpacked into the cache first if it is not there.
 */
export function runtime(kind, major) {
  const spec = KINDS[kind];
  if (spec === undefined) throw new Error(`unknown runtime ${kind} (node, bun or deno)`);
  const version = newestOf(spec.package, major);
  const home = join(cacheDir, `${spec.package.replace('/', '+')}-${version}`);
  const executable = join(home, spec.executable);
  if (existsSync(executable)) return executable;
  mkdirSync(cacheDir, { recursive: true });
  // Unpacked beside its final place and moved there whole, so an interrupted run never leaves
  // a half-unpacked runtime that a later run would take for a finished one.
  const scratch = mkdtempSync(join(cacheDir, '.unpack-'));
  try {
    const [packed] = JSON.parse(
      npm(['pack', `${spec.package}@${version}`, '--json', '--pack-destination', scratch]),
    );
    execFileSync('tar', ['-xzf', join(scratch, packed.filename), '-C', scratch]);
    rmSync(home, { recursive: true, force: true });
    renameSync(join(scratch, 'package'), home);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return executable;
}

/** `node@22` -> ['node', '22']. */
export function parseRuntime(text) {
  const match = /^(node|bun|deno)@(\d+)$/.exec(text);
  if (match === null) throw new Error(`expected runtime@major (node@22, bun@1, deno@2): ${text}`);
  return [match[1], match[2]];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    for (const arg of process.argv.slice(2)) console.log(runtime(...parseRuntime(arg)));
  } catch (err) {
    console.error(`runtimes: ${err.message}`);
    process.exit(2);
  }
}
