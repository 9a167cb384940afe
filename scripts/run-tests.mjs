// Runs every test file under test/ with Node's built-in runner. Node 20's `--test` takes no
// globs, so the files are listed here; tsx lets the tests be TypeScript, type-checked by `tsc`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const filter = process.argv.slice(2);

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

const files = [...testFiles(join(root, 'test'))]
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort();

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...files],
  { stdio: 'inherit', cwd: root },
);
process.exit(result.status ?? 1);
