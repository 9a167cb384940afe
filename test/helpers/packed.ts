// The package as users install it: packed (as `npm publish` would) into a scratch project,
// where tests install the tarball beside the tools they check it with.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const packageRoot = new URL('../../', import.meta.url).pathname;

/** The versions of the devDependencies, for installing the same ones in a scratch project. */
export const devDependencies = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

/** Runs a command; on failure, the error carries everything it printed (tsc prints to stdout). */
export function run(cmd: string, args: string[], cwd: string, input?: string): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }),
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/**
 * `npm pack` of the package into `dir`: the tarball's path and the files it holds. Scripts are
 * not run: dist/ is already built (by `npm test`, or `npm run build` before a single test).
 */
export function pack(dir: string): { tarball: string; files: string[] } {
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], packageRoot),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const info = packed[0];
  if (!info) throw new Error('npm pack reported no package');
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path) };
}

/**
 * `npm install` in `dir`, from npm's cache where it has the packages; returns what npm printed
 * on both streams (its warnings go to stderr).
 */
export function npmInstall(dir: string, specs: string[]): string {
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs];
  const result = spawnSync('npm', args, { cwd: dir, encoding: 'utf8' });
  const printed = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${printed}`);
  return printed;
}
