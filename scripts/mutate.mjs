// `npm run mutate`: applies each targeted mutant of scripts/mutants.mjs (a defence removed or
// bent) to a scratch copy of the repository, one at a time, runs the tests that guard that
// code, and reports which mutants the tests kill. Not part of `npm test`: it takes minutes.
//
//   node scripts/mutate.mjs                 every mutant
//   node scripts/mutate.mjs drain limit     mutants whose name contains "drain" or "limit"
//   node scripts/mutate.mjs --check         only check that every snippet still matches
//   node scripts/mutate.mjs --no-baseline   skip the first run of the tests without a mutant
//
// Each mutant is a file, an exact snippet, its replacement and a name. A snippet that does not
// occur exactly once in its file is *stale* (the code moved on), and so is a test filter that
// no longer names a test file (the tests moved on): the mutant is not run and the script
// fails, so the list is kept up with refactors. A mutant that *survives* (its tests all
// pass) fails the script too, unless the list gives the reason it may (`survives: '...'`).
// The tests of a mutant run until their first failure (the mutant is then killed); tests that
// read the build (package, examples) are never chosen, as the scratch copy is not built (its
// dist/ is the root's, unmutated, for the logger tests whose fixtures load the package).
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mutants } from './mutants.mjs';

const root = new URL('../', import.meta.url).pathname;
const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const filters = args.filter((arg) => !arg.startsWith('--'));
const chosen = mutants.filter(
  (m) => filters.length === 0 || filters.some((part) => m.name.includes(part)),
);

/** How often `snippet` occurs in `text` (overlapping occurrences are not counted). */
function occurrences(text, snippet) {
  return text.split(snippet).length - 1;
}

/** The test files scripts/run-tests.mjs runs, as paths from the root (`test/...`). */
function listTests(dir = 'test') {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return listTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const testFiles = listTests();

/** Why a mutant cannot be run as written, or null when it can. */
function staleness(mutant) {
  const found = occurrences(readFileSync(join(root, mutant.file), 'utf8'), mutant.find);
  if (found !== 1) return `its snippet occurs ${found} times in ${mutant.file}`;
  const idle = mutant.tests.filter((part) => !testFiles.some((file) => file.includes(part)));
  if (idle.length > 0) return `no test file matches ${idle.join(', ')}`;
  return null;
}

/** A copy of the tracked and new files (node_modules and dist linked, no .git): mutants go here. */
function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'httpware-mutate-'));
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\n').filter(Boolean)) {
    try {
      cpSync(join(root, file), join(dir, file), { recursive: true });
    } catch (err) {
      // A file deleted in the working tree but still in the index.
      if (err.code !== 'ENOENT') throw err;
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The root's build, unmutated: the few tests that start an application from the package
  // (the OpenTelemetry fixtures) run as they do at the root, and cannot kill a mutant.
  symlinkSync(join(root, 'dist'), join(dir, 'dist'));
  return dir;
}

/**
 * Runs the test files matching `tests` in `dir`; resolves with the first failing test's name,
 * or null when all passed. The run is stopped at the first failure.
 */
function runTests(dir, tests) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-tests.mjs', ...tests], {
      cwd: dir,
      detached: true,
      env: { ...process.env, TEST_TIMEOUT_MS: '20000', NODE_TEST_CONTEXT: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running = child;
    let output = '';
    let failed = null;
    const onOutput = (chunk) => {
      output += chunk;
      const match = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/m.exec(output);
      if (match && failed === null) {
        failed = match[1];
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('close', (code) => {
      running = null;
      if (failed === null && code !== 0) failed = `exit code ${code}`;
      resolve(failed);
    });
  });
}

const stale = [];
for (const mutant of chosen) {
  const reason = staleness(mutant);
  if (reason === null) continue;
  stale.push(mutant);
  console.log(`stale     ${mutant.name}  (${reason})`);
}
if (checkOnly) {
  console.log(`${chosen.length - stale.length} current, ${stale.length} stale`);
  process.exit(stale.length > 0 ? 1 : 0);
}

const dir = scratchCopy();
// Interrupted: stop the test run under way and remove the scratch copy.
let running = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (running !== null) {
      try {
        process.kill(-running.pid, 'SIGKILL');
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}
// The tests must pass on the unchanged code, or every mutant would look killed.
if (!args.includes('--no-baseline')) {
  const everyTest = [...new Set(chosen.flatMap((m) => m.tests))];
  const failure = await runTests(dir, everyTest);
  if (failure !== null) {
    rmSync(dir, { recursive: true, force: true });
    console.error(`The tests fail without any mutant ("${failure}"): fix them first.`);
    process.exit(1);
  }
}
const results = { killed: 0, survived: 0, accepted: 0 };
try {
  for (const mutant of chosen) {
    if (stale.includes(mutant)) continue;
    const path = join(dir, mutant.file);
    const original = readFileSync(path, 'utf8');
    writeFileSync(
      path,
      original.replace(mutant.find, () => mutant.replace),
    );
    const started = Date.now();
    const killer = await runTests(dir, mutant.tests);
    writeFileSync(path, original);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    if (killer !== null) {
      results.killed += 1;
      console.log(`killed    ${mutant.name}  by "${killer}" (${seconds} s)`);
    } else if (mutant.survives) {
      results.accepted += 1;
      console.log(`survived  ${mutant.name}  (accepted: ${mutant.survives})`);
    } else {
      results.survived += 1;
      console.log(`SURVIVED  ${mutant.name}  (${mutant.file}; ${seconds} s)`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\n${results.killed} killed, ${results.survived + results.accepted} survived ` +
    `(${results.accepted} with a reason), ${stale.length} stale, of ${chosen.length} mutants`,
);
process.exit(results.survived > 0 || stale.length > 0 ? 1 : 0);
