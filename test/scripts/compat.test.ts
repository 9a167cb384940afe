import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

// `npm run compat` runs upstream suites from checkouts the user provides. Those cannot be
// fetched here, so these tests give it small checkouts of our own: a package.json naming the
// suite, and a mocha test directory that loads the package through `require('..')` as the
// upstream suites do (and, for Express, a lib of its own depending on body-parser). Their
// mocha is the one in our node_modules, linked with `file:` and installed with npm offline, so
// the whole path (copy, shim, install, mocha, report) runs.
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'httpware-compat-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runCompat(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['scripts/compat.mjs', ...args], {
    cwd: root,
    env: { ...process.env, INIT_CWD: work, npm_config_offline: 'true' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
}

let checkouts = 0;
/** A checkout of our own named `name`, with `tests` written into test/ (file -> source). */
function checkout(name: string, tests: Record<string, string>, pkg: object = {}): string {
  const dir = join(work, `checkout-${checkouts++}`);
  mkdirSync(join(dir, 'test'), { recursive: true });
  const manifest = {
    name,
    version: '0.0.0',
    scripts: { test: 'mocha --check-leaks --reporter spec test/' },
    devDependencies: { mocha: `file:${join(root, 'node_modules/mocha')}` },
    ...pkg,
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [file, source] of Object.entries(tests)) {
    mkdirSync(dirname(join(dir, 'test', file)), { recursive: true });
    writeFileSync(join(dir, 'test', file), source);
  }
  return dir;
}

/** An expected-failures list whose entries sit under `section` (our checkouts are 0.0.0). */
function expectedList(lines: string[], section = '[morgan 0.x]'): string {
  const file = join(work, `expected-${checkouts++}.txt`);
  writeFileSync(file, `# our own list\n${section}\n${lines.join('\n')}\n`);
  return file;
}

const loggerSuite = `
const assert = require('node:assert');
const subject = require('..');
describe('the logger entry', function () {
  it('is a function with compile', function () {
    assert.strictEqual(typeof subject, 'function');
    assert.strictEqual(typeof subject.compile, 'function');
  });
  it('refuses to be called without a format', function () {
    subject();
  });
});
`;

/** The logger suite above, in a fresh morgan checkout, judged by the list `expected`. */
function runLoggerSuite(expected: string): Promise<Run> {
  return runCompat([
    '--morgan',
    checkout('morgan', { 'logger.js': loggerSuite }),
    '--expected',
    expected,
  ]);
}

describe('npm run compat: arguments and checkouts', () => {
  test('refuses to run without any checkout, printing the usage', async () => {
    const run = await runCompat([]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /at least one suite[\s\S]*usage: npm run compat/);
  });

  test('refuses an unknown argument', async () => {
    const run = await runCompat(['--connect', work]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown argument --connect/);
  });

  test('refuses a flag without its directory', async () => {
    const run = await runCompat(['--morgan']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--morgan needs a value/);
  });

  test('names a checkout directory that does not exist', async () => {
    const run = await runCompat(['--morgan', 'no-such-checkout']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--morgan .*no-such-checkout: no such directory/);
  });

  test('refuses a checkout of another package', async () => {
    const run = await runCompat(['--body-parser', checkout('morgan', { 'a.js': '' })]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /this is morgan, not body-parser/);
  });

  test('explains that an installed npm package has no tests to run', async () => {
    const run = await runCompat(['--morgan', checkout('morgan', {})]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /no test\/ directory .*git clone/);
  });
});

describe('npm run compat: running a suite against the build', () => {
  test('passes when every failure is listed, loading httpware through require("..")', async () => {
    const expected = expectedList([
      'the logger entry refuses to be called without a format\tno default format',
    ]);
    const run = await runLoggerSuite(expected);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /morgan 0.0.0: 1 passed, 1 failed \(1 expected\), 0 pending, 0 files not applicable/,
    );
  });

  test('fails on a failure that is not listed, naming its title and error', async () => {
    const run = await runLoggerSuite(expectedList([]));
    assert.equal(run.status, 1);
    assert.match(
      run.stdout,
      /unexpected failure: the logger entry refuses to be called without a format\n\s+.*format/,
    );
  });

  test('says when a listed failure now passes', async () => {
    const expected = expectedList(['the logger entry is a function with compile\twas missing']);
    const run = await runLoggerSuite(expected);
    assert.match(
      run.stdout,
      /listed as an expected failure but passes: the logger entry is a function with compile/,
    );
  });

  test('points body-parser suites at the parsers, with the mocha options of their test script', async () => {
    const suite = `
const assert = require('node:assert');
const bodyParser = require('../');
it('runs after the set-up the test script requires', function () {
  assert.strictEqual(process.env.COMPAT_SET_UP, 'yes');
});
it('has the four parsers', function () {
  const kinds = ['json', 'raw', 'text', 'urlencoded'].map((k) => typeof bodyParser[k]);
  assert.deepStrictEqual(kinds, Array(4).fill('function'));
});
`;
    const dir = checkout(
      'body-parser',
      { 'parsers.js': suite },
      {
        scripts: {
          test: 'mocha --require ./test/support/set-up --reporter spec --check-leaks test/',
        },
      },
    );
    mkdirSync(join(dir, 'test/support'));
    writeFileSync(join(dir, 'test/support/set-up.js'), "process.env.COMPAT_SET_UP = 'yes';\n");
    const run = await runCompat(['--body-parser', dir]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /body-parser 0.0.0: 2 passed, 0 failed/);
  });

  test('excuses a listed failure only in the section of its suite and major version', async () => {
    const expected = expectedList(
      ['the logger entry refuses to be called without a format\tno default format'],
      '[morgan 1.x]',
    );
    const run = await runLoggerSuite(expected);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /unexpected failure: the logger entry refuses to be called/);
  });

  test('counts every failure though the test script bails at the first', async () => {
    const suite = `
it('fails first', function () { throw new Error('one'); });
it('fails second', function () { throw new Error('two'); });
`;
    const dir = checkout(
      'morgan',
      { 'bail.js': suite },
      { scripts: { test: 'mocha --bail --reporter spec test/' } },
    );
    const expected = expectedList(['fails first\tone', 'fails second\ttwo']);
    const run = await runCompat(['--morgan', dir, '--expected', expected]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /morgan 0.0.0: 0 passed, 2 failed \(2 expected\)/);
  });
});

describe('npm run compat: test files that cannot run against httpware', () => {
  const passing = `
const assert = require('node:assert');
const bodyParser = require('..');
it('has a json parser', function () {
  assert.strictEqual(typeof bodyParser.json, 'function');
});
`;

  test('names a test file requiring upstream internals, with the module, and runs the rest', async () => {
    const dir = checkout('body-parser', {
      'parsers.js': passing,
      'internals.js': "const utils = require('../lib/utils');\nit('uses internals', () => {});\n",
    });
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib/utils.js'), 'module.exports = {};\n');
    const run = await runCompat(['--body-parser', dir]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /body-parser 0.0.0: 1 passed, 0 failed \(0 expected\), 0 pending, 1 file not applicable/,
    );
    assert.match(
      run.stdout,
      /not applicable: test\/internals.js: requires lib\/utils.js, body-parser's internals, not its package entry/,
    );
  });

  test('follows test/ helpers to the internals they require', async () => {
    const dir = checkout('body-parser', {
      'parsers.js': passing,
      'indirect.js': "require('./support/helper');\nit('uses a helper', () => {});\n",
      'support/helper.js': "module.exports = require('../../lib/read');\n",
    });
    const run = await runCompat(['--body-parser', dir]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /not applicable: test\/indirect.js: requires \.\.\/\.\.\/lib\/read \(through test\/support\/helper.js\)/,
    );
  });

  test('counts the package entry by its main file as the package', async () => {
    const dir = checkout(
      'body-parser',
      { 'main.js': passing.replace("require('..')", "require('../index.js')") },
      { main: 'index.js' },
    );
    writeFileSync(join(dir, 'index.js'), 'module.exports = {};\n');
    const run = await runCompat(['--body-parser', dir]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /body-parser 0.0.0: 1 passed, 0 failed \(0 expected\), 0 pending, 0 files/,
    );
  });
});

describe('npm run compat: Express, its own code with httpware as body-parser', () => {
  test("runs the checkout's lib with body-parser resolved to httpware's parsers", async () => {
    const parsers = join(root, 'entries/parsers.cjs');
    const suite = `
const assert = require('node:assert');
const express = require('..');
it('loads the checkout itself', function () {
  assert.strictEqual(express.own(), 'the checkout');
});
it("gets its json() from httpware's parsers", function () {
  assert.strictEqual(express.json, require(${JSON.stringify(parsers)}).json);
});
`;
    const dir = checkout(
      'express',
      { 'express.js': suite },
      { main: 'index.js', dependencies: { 'body-parser': '1.20.3' } },
    );
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'index.js'), "module.exports = require('./lib/express');\n");
    writeFileSync(
      join(dir, 'lib/express.js'),
      "exports.json = require('body-parser').json;\nexports.own = () => 'the checkout';\n",
    );
    const run = await runCompat(['--express', dir]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /express 0.0.0: 2 passed, 0 failed \(0 expected\), 0 pending/);
  });

  test('refuses an Express checkout that does not depend on body-parser', async () => {
    const run = await runCompat(['--express', checkout('express', { 'a.js': '' })]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /body-parser is not among its dependencies/);
  });
});
