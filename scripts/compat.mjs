#!/usr/bin/env node
// Runs morgan's and body-parser's own test suites, from checkouts the user provides (a `git
// clone` of each: their npm packages ship no tests), against httpware's build:
//
//   npm run compat -- --morgan <dir> --body-parser <dir> [--expected <file>] [--keep]
//
// Nothing upstream is kept in this repository. Each suite's test/ directory is copied to a
// scratch directory whose package.json has the suite's devDependencies and, as `main`, a
// one-line shim requiring our built entry, so the suite's own `require('..')` loads httpware.
// mocha runs with its JSON reporter; a failing test passes the run only when its full title is
// listed, with the reason, in compat/expected-failures.txt. Exit 0 when every failure is
// expected, 1 when one is not, 2 when the arguments, a checkout or the set-up are unusable.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SUITES = {
  morgan: { entry: 'entries/logger.cjs', repo: 'https://github.com/expressjs/morgan' },
  'body-parser': { entry: 'entries/parsers.cjs', repo: 'https://github.com/expressjs/body-parser' },
};
const USAGE =
  'usage: npm run compat -- [--morgan <dir>] [--body-parser <dir>] [--expected <file>] [--keep]';

class Unusable extends Error {}

function parseArgs(argv) {
  const options = { suites: {}, expected: join(root, 'compat/expected-failures.txt'), keep: false };
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
    else if (flag.slice(2) in SUITES) options.suites[flag.slice(2)] = resolve(here, value);
    else throw new Unusable(`unknown argument ${flag}\n${USAGE}`);
  }
  if (Object.keys(options.suites).length === 0) {
    throw new Unusable(`give the checkout of at least one suite\n${USAGE}`);
  }
  return options;
}

/** title -> reason, from lines `title<TAB>reason`; `#` starts a comment line. */
function readExpected(file) {
  if (!existsSync(file)) throw new Unusable(`expected-failures list ${file} does not exist`);
  const expected = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [title, reason] = line.split('\t');
    if (!reason) throw new Unusable(`${file}: no reason after a tab in "${line}"`);
    expected.set(title, reason);
  }
  return expected;
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
  return pkg;
}

/** mocha's arguments from the suite's own `test` script, minus its reporter (we need JSON). */
function mochaArgs(pkg) {
  const words = (pkg.scripts?.test ?? '').split(/\s+/);
  const start = words.indexOf('mocha');
  if (start < 0) return ['test/'];
  const args = [];
  for (let i = start + 1; i < words.length && !['&&', '||', ';', '|'].includes(words[i]); i++) {
    const word = words[i];
    if (word === '--reporter' || word === '-R' || word.startsWith('--reporter-option')) i++;
    else if (!word.startsWith('--reporter') && word !== '') args.push(word);
  }
  return args;
}

/** A scratch copy of the suite whose package main is a shim loading httpware's build. */
function prepareScratch(name, dir, pkg) {
  const scratch = mkdtempSync(join(tmpdir(), `httpware-compat-${name}-`));
  cpSync(join(dir, 'test'), join(scratch, 'test'), { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.startsWith('.mocharc')) cpSync(join(dir, file), join(scratch, file));
  }
  const shim = 'httpware-shim.cjs';
  writeFileSync(
    join(scratch, shim),
    `module.exports = require(${JSON.stringify(join(root, SUITES[name].entry))});\n`,
  );
  const manifest = {
    name,
    version: pkg.version,
    private: true,
    main: shim,
    devDependencies: pkg.devDependencies,
  };
  if (pkg.type) manifest.type = pkg.type;
  writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return scratch;
}

function install(name, scratch) {
  process.stderr.write(`${name}: installing the suite's devDependencies in ${scratch}\n`);
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
    throw new Unusable(`${name}: npm install of the suite's devDependencies failed`);
}

/** mocha's JSON report: { stats, passes, failures, pending }. */
function runMocha(name, scratch, pkg) {
  const output = join(scratch, 'mocha-report.json');
  const mocha = join(scratch, 'node_modules/.bin/mocha');
  const args = [...mochaArgs(pkg), '--reporter', 'json', '--reporter-option', `output=${output}`];
  process.stderr.write(`${name}: mocha ${args.join(' ')}\n`);
  const run = spawnSync(mocha, args, { cwd: scratch, stdio: ['ignore', 2, 2] });
  if (!existsSync(output))
    throw new Unusable(`${name}: mocha produced no report (exit ${run.status})`);
  return JSON.parse(readFileSync(output, 'utf8'));
}

/** Prints the suite's result; returns true when every failure is an expected one. */
function judge(name, report, expected) {
  const failed = report.failures.map((t) => t.fullTitle);
  const unexpected = report.failures.filter((t) => !expected.has(t.fullTitle));
  const nowPassing = report.passes.filter((t) => expected.has(t.fullTitle));
  console.log(
    `${name}: ${report.passes.length} passed, ${failed.length} failed ` +
      `(${failed.length - unexpected.length} expected), ${report.pending.length} pending`,
  );
  for (const t of unexpected) {
    console.log(
      `  unexpected failure: ${t.fullTitle}\n      ${String(t.err?.message ?? '').split('\n')[0]}`,
    );
  }
  for (const t of nowPassing) {
    console.log(
      `  listed as an expected failure but passes: ${t.fullTitle} (${expected.get(t.fullTitle)})`,
    );
  }
  return unexpected.length === 0;
}

function runSuite(name, dir, expected, keep) {
  const pkg = readCheckout(name, dir);
  const scratch = prepareScratch(name, dir, pkg);
  try {
    install(name, scratch);
    return judge(name, runMocha(name, scratch, pkg), expected);
  } finally {
    if (keep) process.stderr.write(`${name}: kept ${scratch}\n`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  for (const suite of Object.keys(options.suites)) {
    if (!existsSync(join(root, SUITES[suite].entry)) || !existsSync(join(root, 'dist/index.cjs'))) {
      throw new Unusable('httpware is not built: run `npm run build` first');
    }
  }
  const expected = readExpected(options.expected);
  // Every checkout is checked before anything is installed, so a typo fails at once.
  for (const [name, dir] of Object.entries(options.suites)) readCheckout(name, dir);
  let ok = true;
  for (const [name, dir] of Object.entries(options.suites)) {
    ok = runSuite(name, dir, expected, options.keep) && ok;
  }
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
