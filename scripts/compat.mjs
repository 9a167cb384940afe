#!/usr/bin/env node
// Runs upstream test suites, from checkouts the user provides (a `git clone` of each: the npm
// packages ship no tests), against httpware's build:
//
//   npm run compat -- --morgan <dir> --body-parser <dir> --express <dir> [--expected <file>] [--keep]
//
// Each flag may be given more than once (body-parser 1.x and 2.x, Express 4 and 5). Nothing
// upstream is kept in this repository. Two kinds of suite:
//
// - replace (morgan, body-parser): the suite tests the package itself. Its test/ directory is
//   copied to a scratch directory whose package.json has the suite's devDependencies and, as
//   `main`, a one-line shim requiring our built entry, so the suite's own `require('..')` loads
//   httpware. A test file that reaches past the package entry into the checkout (its lib/, say)
//   tests upstream internals httpware does not have: it is named, with that reason, and left out.
// - override (express): the suite tests the checkout's own code, which depends on body-parser.
//   The whole checkout is copied and installed with its `body-parser` dependency replaced by a
//   local package whose main is the shim, so `express.json()` and the others run httpware.
//
// mocha runs with a reporter of ours (a few runner events written to a JSON file: the JSON
// reporter's `output` option is missing from the older mocha some suites pin). A failing test
// passes the run only when its full title is listed, with the reason, under the suite's section
// of compat/expected-failures.txt. Exit 0 when every failure is expected, 1 when one is not, 2
// when the arguments, a checkout or the set-up are unusable.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const PARSERS = 'entries/parsers.cjs';
const SUITES = {
  morgan: {
    kind: 'replace',
    entry: 'entries/logger.cjs',
    repo: 'https://github.com/expressjs/morgan',
  },
  'body-parser': {
    kind: 'replace',
    entry: PARSERS,
    repo: 'https://github.com/expressjs/body-parser',
  },
  express: {
    kind: 'override',
    dependency: 'body-parser',
    entry: PARSERS,
    repo: 'https://github.com/expressjs/express',
  },
};
const USAGE =
  'usage: npm run compat -- [--morgan <dir>] [--body-parser <dir>] [--express <dir>] [--expected <file>] [--keep]\n' +
  '(each suite flag may be repeated, e.g. for body-parser 1.x and 2.x)';
// mocha's options that take a value: whatever follows them is not a spec (file or directory).
const VALUE_OPTIONS = new Set(
  '-r --require -R --reporter -O --reporter-option --reporter-options -u --ui -t --timeout -s --slow -g --grep -f --fgrep --file --extension --spec --config --package --ignore --exclude -j --jobs --retries -n --node-option'.split(
    ' ',
  ),
);
// Dropped from the suite's own arguments: we choose the reporter, and `--bail` would stop the
// count at the first failure, which is precisely what we want to see past.
const DROPPED = new Set(['-R', '--reporter', '-O', '--reporter-option', '--reporter-options']);
const DROPPED_FLAGS = new Set(['-b', '--bail']);
const TEST_FILE = /\.(c|m)?js$/;

class Unusable extends Error {}

function parseArgs(argv) {
  const options = { suites: [], expected: join(root, 'compat/expected-failures.txt'), keep: false };
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  const here = process.env.INIT_CWD ?? process.cwd();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--keep') {
      options.keep = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value.startsWith('--'))
      throw new Unusable(`${flag} needs a value\n${USAGE}`);
    if (flag === '--expected') options.expected = resolve(here, value);
    else if (flag.slice(2) in SUITES)
      options.suites.push({ name: flag.slice(2), dir: resolve(here, value) });
    else throw new Unusable(`unknown argument ${flag}\n${USAGE}`);
  }
  if (options.suites.length === 0) {
    throw new Unusable(`give the checkout of at least one suite\n${USAGE}`);
  }
  return options;
}

/**
 * section -> (title -> reason). Sections are lines `[name major.x]` (`[body-parser 1.x]`),
 * entries lines `title<TAB>reason`; `#` starts a comment line.
 */
function readExpected(file) {
  if (!existsSync(file)) throw new Unusable(`expected-failures list ${file} does not exist`);
  const sections = new Map();
  let section;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line.trim());
    if (header) {
      section = new Map();
      sections.set(header[1], section);
      continue;
    }
    const [title, reason] = line.split('\t');
    if (!reason) throw new Unusable(`${file}: no reason after a tab in "${line}"`);
    if (!section)
      throw new Unusable(`${file}: "${title}" comes before any [suite major.x] section`);
    section.set(title, reason);
  }
  return sections;
}

/** The checked-out package.json, after checking this is a usable checkout of `name`. */
function readCheckout(name, dir) {
  const where = `--${name} ${dir}`;
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new Unusable(`${where}: no such directory`);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    throw new Unusable(
      `${where}: no readable package.json; expected a git clone of ${SUITES[name].repo}`,
    );
  }
  if (pkg.name !== name)
    throw new Unusable(`${where}: this is ${pkg.name ?? 'an unnamed package'}, not ${name}`);
  if (!existsSync(join(dir, 'test')) || readdirSync(join(dir, 'test')).length === 0) {
    throw new Unusable(
      `${where}: no test/ directory (the npm package ships no tests); use a git clone of ${SUITES[name].repo}`,
    );
  }
  if (!pkg.devDependencies?.mocha)
    throw new Unusable(`${where}: mocha is not among its devDependencies`);
  const { dependency } = SUITES[name];
  if (dependency && !pkg.dependencies?.[dependency])
    throw new Unusable(`${where}: ${dependency} is not among its dependencies`);
  return pkg;
}

/** The words of the suite's own `test` script after `mocha`, up to the next command. */
function scriptWords(pkg) {
  const words = (pkg.scripts?.test ?? '').split(/\s+/).filter((w) => w !== '');
  const start = words.indexOf('mocha');
  if (start < 0) return [];
  const end = words.findIndex((w, i) => i > start && ['&&', '||', ';', '|'].includes(w));
  return words.slice(start + 1, end < 0 ? undefined : end);
}

/** mocha's options (minus reporter and bail) and specs, from the suite's own `test` script. */
function mochaArgs(pkg) {
  const options = [];
  const specs = [];
  const words = scriptWords(pkg);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const [flag] = word.split('=');
    if (DROPPED.has(flag) || DROPPED_FLAGS.has(flag)) {
      if (DROPPED.has(flag) && !word.includes('=')) i++;
    } else if (VALUE_OPTIONS.has(flag)) {
      options.push(word);
      if (!word.includes('=')) options.push(words[++i]);
    } else if (word.startsWith('-')) options.push(word);
    else specs.push(word);
  }
  // mocha's default spec: the files directly in ./test.
  return { options, specs: specs.length > 0 ? specs : ['test'] };
}

/** The files mocha would load for `specs`, relative to `dir`. */
function testFiles(dir, specs, recursive) {
  const files = [];
  const walk = (path, top) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) {
      // A glob or a typo: mocha expands or reports it; we only check files we can name.
      if (/[*?{[]/.test(path))
        throw new Unusable(`${path}: globs in the test script are not supported`);
      return;
    }
    if (stat.isFile()) {
      if (top || TEST_FILE.test(path)) files.push(relative(dir, path));
    } else if (top || recursive) {
      for (const name of readdirSync(path).sort()) {
        const child = join(path, name);
        if (statSync(child).isFile() || recursive) walk(child, false);
      }
    }
  };
  for (const spec of specs) walk(resolve(dir, spec), true);
  return [...new Set(files)];
}

const REQUIRES = /(?:require|import)\s*\(\s*(['"])(\.[^'"]*)\1\s*\)|from\s*(['"])(\.[^'"]*)\3/g;

/** `specifier` as Node would resolve it from `from`, or undefined when nothing is there. */
function resolveFile(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.js`, `${base}.cjs`, `${base}.json`]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  if (statSync(base, { throwIfNoEntry: false })?.isDirectory()) return base;
  return undefined;
}

/** The checkout's main file (index.js when package.json names none), as a full path. */
function mainFile(dir, pkg) {
  const main = pkg.main ?? 'index.js';
  return resolveFile(join(dir, 'package.json'), `./${main}`) ?? join(dir, main);
}

/**
 * Why `file` cannot run against httpware, or undefined when it can: a replace suite's copy has
 * only test/ and the shim, so every module it loads, followed through test/, must be in test/
 * or be the package itself (the checkout's directory or its main file).
 */
function inapplicable(name, dir, pkg, file) {
  const testDir = join(dir, 'test') + sep;
  const entries = new Set([dir, mainFile(dir, pkg)]);
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path)) return undefined;
    seen.add(path);
    for (const match of readFileSync(path, 'utf8').matchAll(REQUIRES)) {
      const specifier = match[2] ?? match[4];
      const target = resolveFile(path, specifier);
      if (target && entries.has(target)) continue;
      if (target?.startsWith(testDir)) {
        const reason = TEST_FILE.test(target) ? visit(target) : undefined;
        if (reason) return reason;
        continue;
      }
      const shown = target ? relative(dir, target) : specifier;
      const via = path === join(dir, file) ? '' : ` (through ${relative(dir, path)})`;
      return `requires ${shown}${via}, ${name}'s internals, not its package entry`;
    }
    return undefined;
  };
  return visit(join(dir, file));
}

// A reporter of ours: the runner's events, written as JSON where the runner asks.
const REPORTER = `'use strict';
const { writeFileSync } = require('node:fs');
module.exports = function HttpwareCompatReporter(runner) {
  const report = { passes: [], failures: [], pending: [] };
  const entry = (test, err) => ({
    fullTitle: test.fullTitle(),
    file: test.file,
    message: err ? String(err.message) : undefined,
  });
  runner.on('pass', (test) => report.passes.push(entry(test)));
  runner.on('fail', (test, err) => report.failures.push(entry(test, err)));
  runner.on('pending', (test) => report.pending.push(entry(test)));
  runner.once('end', () => writeFileSync(process.env.HTTPWARE_COMPAT_REPORT, JSON.stringify(report)));
};
`;

function shimSource(entry) {
  return `module.exports = require(${JSON.stringify(join(root, entry))});\n`;
}

/** A scratch copy of the suite, set up for its kind, with our reporter beside it. */
function prepareScratch(name, dir, pkg) {
  const suite = SUITES[name];
  const scratch = mkdtempSync(join(tmpdir(), `httpware-compat-${name}-`));
  let manifest;
  if (suite.kind === 'replace') {
    cpSync(join(dir, 'test'), join(scratch, 'test'), { recursive: true });
    for (const file of readdirSync(dir)) {
      if (file.startsWith('.mocharc')) cpSync(join(dir, file), join(scratch, file));
    }
    // The shim takes the main file's place, so `require('../index.js')` finds it as well.
    const main = relative(dir, mainFile(dir, pkg));
    mkdirSync(dirname(join(scratch, main)), { recursive: true });
    writeFileSync(join(scratch, main), shimSource(suite.entry));
    manifest = {
      name,
      version: pkg.version,
      private: true,
      main,
      devDependencies: pkg.devDependencies,
    };
    if (pkg.type) manifest.type = pkg.type;
  } else {
    const skip = new Set(['node_modules', '.git', 'coverage', '.nyc_output']);
    cpSync(dir, scratch, {
      recursive: true,
      filter: (path) => !skip.has(relative(dir, path).split(sep)[0]),
    });
    const shimDir = join(scratch, `httpware-${suite.dependency}`);
    mkdirSync(shimDir);
    writeFileSync(join(shimDir, 'index.js'), shimSource(suite.entry));
    writeFileSync(
      join(shimDir, 'package.json'),
      `${JSON.stringify({ name: suite.dependency, version: '0.0.0-httpware', main: 'index.js' })}\n`,
    );
    manifest = {
      ...pkg,
      scripts: {},
      dependencies: {
        ...pkg.dependencies,
        [suite.dependency]: `file:./httpware-${suite.dependency}`,
      },
    };
  }
  writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(scratch, 'httpware-compat-reporter.cjs'), REPORTER);
  return scratch;
}

function install(label, scratch) {
  process.stderr.write(`${label}: installing the suite's dependencies in ${scratch}\n`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--ignore-scripts',
      '--loglevel=error',
    ],
    { cwd: scratch, stdio: ['ignore', 2, 2] },
  );
  if (npm.status !== 0)
    throw new Unusable(`${label}: npm install of the suite's dependencies failed`);
}

/** The report of our reporter: { passes, failures, pending }. */
function runMocha(label, scratch, args) {
  const output = join(scratch, 'mocha-report.json');
  const mocha = join(scratch, 'node_modules/.bin/mocha');
  const all = [...args, '--reporter', './httpware-compat-reporter.cjs'];
  process.stderr.write(`${label}: mocha ${all.join(' ')}\n`);
  const run = spawnSync(mocha, all, {
    cwd: scratch,
    stdio: ['ignore', 2, 2],
    env: { ...process.env, HTTPWARE_COMPAT_REPORT: output },
  });
  if (!existsSync(output))
    throw new Unusable(`${label}: mocha produced no report (exit ${run.status})`);
  return JSON.parse(readFileSync(output, 'utf8'));
}

/** Prints the suite's result; returns true when every failure is an expected one. */
function judge(label, report, expected, skipped) {
  const failed = report.failures.map((t) => t.fullTitle);
  const unexpected = report.failures.filter((t) => !expected.has(t.fullTitle));
  const nowPassing = report.passes.filter((t) => expected.has(t.fullTitle));
  console.log(
    `${label}: ${report.passes.length} passed, ${failed.length} failed ` +
      `(${failed.length - unexpected.length} expected), ${report.pending.length} pending, ` +
      `${skipped.length} file${skipped.length === 1 ? '' : 's'} not applicable`,
  );
  for (const { file, reason } of skipped) console.log(`  not applicable: ${file}: ${reason}`);
  for (const t of unexpected) {
    console.log(
      `  unexpected failure: ${t.fullTitle}\n      ${String(t.message ?? '').split('\n')[0]}`,
    );
  }
  for (const t of nowPassing) {
    console.log(
      `  listed as an expected failure but passes: ${t.fullTitle} (${expected.get(t.fullTitle)})`,
    );
  }
  return unexpected.length === 0;
}

function runSuite({ name, dir }, sections, keep) {
  const pkg = readCheckout(name, dir);
  const section = `${name} ${pkg.version.split('.')[0]}.x`;
  const label = `${name} ${pkg.version}`;
  const { options, specs } = mochaArgs(pkg);
  const skipped = [];
  let run = specs;
  if (SUITES[name].kind === 'replace') {
    const files = testFiles(dir, specs, options.includes('--recursive'));
    for (const file of files) {
      const reason = inapplicable(name, dir, pkg, file);
      if (reason) skipped.push({ file, reason });
    }
    // The files themselves rather than mocha's --ignore, which older mocha spells --exclude.
    if (skipped.length > 0) run = files.filter((file) => !skipped.some((s) => s.file === file));
  }
  const scratch = prepareScratch(name, dir, pkg);
  try {
    install(label, scratch);
    const report = runMocha(label, scratch, [...options, ...run]);
    return judge(label, report, sections.get(section) ?? new Map(), skipped);
  } finally {
    if (keep) process.stderr.write(`${label}: kept ${scratch}\n`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  for (const { name } of options.suites) {
    if (!existsSync(join(root, SUITES[name].entry)) || !existsSync(join(root, 'dist/index.cjs'))) {
      throw new Unusable('httpware is not built: run `npm run build` first');
    }
  }
  const sections = readExpected(options.expected);
  // Every checkout is checked before anything is installed, so a typo fails at once.
  for (const { name, dir } of options.suites) readCheckout(name, dir);
  let ok = true;
  for (const suite of options.suites) ok = runSuite(suite, sections, options.keep) && ok;
  console.log(
    ok ? 'compat: every failure is an expected one' : 'compat: unexpected failures (above)',
  );
  return ok ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof Unusable)) throw error;
  console.error(`compat: ${error.message}`);
  process.exitCode = 2;
}
