import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  cjsCheck,
  esmCheck,
  tsCjsCheck,
  tsClassicCheck,
  tsconfig,
  tsconfigNode10,
  tsEsmCheck,
} from './fixtures.js';

// What users install is what is tested: the package is packed (as `npm publish` would), the
// tarball installed into a scratch project, and every entry loaded from CommonJS, ESM and
// type-checked TypeScript. `npm test` builds dist/ before the tests run.

const root = new URL('../../', import.meta.url).pathname;
const devPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
/** Runs a command; on failure, the error carries everything it printed (tsc prints to stdout). */
function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

describe('the packed package', () => {
  let scratch = '';
  let tarball = '';
  let files: string[] = [];

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'httpware-pack-'));
    // --ignore-scripts: dist/ is already built by `npm test`; packing must not rebuild it.
    const packed = JSON.parse(
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], root),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const info = packed[0];
    assert.ok(info);
    tarball = join(scratch, info.filename);
    files = info.files.map((f) => f.path);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true }),
    );
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `typescript@${devPackage.devDependencies.typescript}`,
        `@types/node@${devPackage.devDependencies['@types/node']}`,
      ],
      scratch,
    );
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('ships only the build, the entries, the readme and the licence', () => {
    const unexpected = files.filter(
      (f) => !/^(dist\/|entries\/|package\.json$|README\.md$|LICENSE$)/.test(f),
    );
    assert.deepEqual(unexpected, []);
    assert.ok(files.includes('dist/index.cjs'));
    assert.ok(files.includes('dist/index.d.cts'));
  });

  test('loads every entry from CommonJS with the drop-in shapes', () => {
    writeFileSync(join(scratch, 'check.cjs'), cjsCheck);
    assert.equal(run(process.execPath, ['check.cjs'], scratch), 'cjs ok\n');
  });

  test('loads every entry from ESM, sharing one implementation with CommonJS', () => {
    writeFileSync(join(scratch, 'check.mjs'), esmCheck);
    assert.equal(run(process.execPath, ['check.mjs'], scratch), 'esm ok\n');
  });

  test('type-checks from TypeScript in both module systems', () => {
    writeFileSync(join(scratch, 'esm.ts'), tsEsmCheck);
    writeFileSync(join(scratch, 'cjs.cts'), tsCjsCheck);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
    );
    writeFileSync(join(scratch, 'tsconfig.json'), tsconfig);
    run(process.execPath, [join(scratch, 'node_modules/typescript/bin/tsc'), '-p', '.'], scratch);
  });

  test('type-checks from a classic CommonJS TypeScript project (node10 resolution)', () => {
    writeFileSync(join(scratch, 'classic.ts'), tsClassicCheck);
    writeFileSync(join(scratch, 'tsconfig.node10.json'), tsconfigNode10);
    const tsc = join(scratch, 'node_modules/typescript/bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.node10.json'], scratch);
  });
});
