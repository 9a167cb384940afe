// Runs every test file under test/ with Node's built-in runner. Node 20's `--test` takes no
// globs, so the files are listed here; tsx lets the tests be TypeScript, type-checked by `tsc`.
//
// Arguments filter the files by path substring (`node scripts/run-tests.mjs test/logger`); an
// argument that is the path of an existing file runs that file as it is (a fixture, say).
//
// A hang must fail, not hold the run:
// - test/helpers/test-timeout.ts gives every test a default timeout (TEST_TIMEOUT_MS), so a
//   hanging test fails under its own name and the file goes on with the next test;
// - `--test-force-exit` ends a file's process once its tests are done, even if a timed-out
//   test left a socket or timer behind;
// - `--test-timeout` bounds each file as a whole, for a hang outside any test (a hook, the
//   module's top level). It is generous: a few files run for a minute on a loaded machine.
//
// A warning that reaches the output fails the run, even when every test passed: it is a
// listener leak, a deprecated API, an HTTP/2 header Node refused, or a warning of ours that a
// test provoked without taking it (test/helpers/warnings.ts). Node prints each as
// `(node:<pid>) [code] SomeWarning: ...`; the output is passed through as it comes and
// those lines are counted on the way.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const args = process.argv.slice(2);
const FILE_TIMEOUT_MS = 10 * 60_000;

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

const isFile = (arg) => existsSync(resolve(root, arg)) && statSync(resolve(root, arg)).isFile();
const given = args.filter(isFile).map((arg) => resolve(root, arg));
const filter = args.filter((arg) => !isFile(arg));
// Files run in the order of the filters they match first (then by path), so the most telling
// files can be named first (scripts/mutate.mjs stops at the first failure).
const rank = (file) => (filter.length === 0 ? 0 : filter.findIndex((part) => file.includes(part)));
const files = [...testFiles(join(root, 'test'))]
  .filter((file) => rank(file) !== -1)
  .filter(() => given.length === 0 || filter.length > 0)
  .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
  .concat(given);

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    './test/helpers/test-timeout.ts',
    '--test',
    '--test-force-exit',
    `--test-timeout=${FILE_TIMEOUT_MS}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: ['inherit', 'pipe', 'pipe'], cwd: root },
);

const WARNING_LINE = /\(node:\d+\) (?:\[[\w-]+\] )?\w*Warning: .*/g;
const warnings = [];
/** Passes a stream's output through, noting the warning lines in it. */
function watch(from, to) {
  let tail = '';
  from.on('data', (chunk) => {
    to.write(chunk);
    const text = tail + chunk.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    warnings.push(...(text.slice(0, end).match(WARNING_LINE) ?? []));
    tail = text.slice(end);
  });
  from.on('end', () => warnings.push(...(tail.match(WARNING_LINE) ?? [])));
}
watch(child.stdout, process.stdout);
watch(child.stderr, process.stderr);

child.on('close', (code, signal) => {
  if (warnings.length > 0) {
    console.error(`\n✖ ${warnings.length} warning(s) printed during the tests:`);
    for (const line of new Set(warnings)) console.error(`  ${line}`);
    process.exit(1);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
