import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

// `npm run compat` runs upstream suites from checkouts the user provides. Those cannot be
// fetched here, so these tests give it small checkouts of our own: a package.json naming the
// suite, and a mocha test directory that loads the package through `require('..')` as the
// upstream suites do. Their mocha is the one in our node_modules, linked with `file:` and
// installed with npm offline, so the whole path (copy, shim, install, mocha, report) runs.
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
  for (const [file, source] of Object.entries(tests))
    writeFileSync(join(dir, 'test', file), source);
  return dir;
}

function expectedList(lines: string[]): string {
  const file = join(work, `expected-${checkouts++}.txt`);
  writeFileSync(file, `# our own list\n${lines.join('\n')}\n`);
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

describe('npm run compat: arguments and checkouts', () => {
  test('refuses to run without any checkout, printing the usage', async () => {
    const run = await runCompat([]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /at least one suite[\s\S]*usage: npm run compat/);
  });

  test('refuses an unknown argument', async () => {
    const run = await runCompat(['--express', work]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown argument --express/);
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
    const run = await runCompat([
      '--morgan',
      checkout('morgan', { 'logger.js': loggerSuite }),
      '--expected',
      expected,
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /morgan: 1 passed, 1 failed \(1 expected\), 0 pending/);
  });

  test('fails on a failure that is not listed, naming its title and error', async () => {
    const run = await runCompat([
      '--morgan',
      checkout('morgan', { 'logger.js': loggerSuite }),
      '--expected',
      expectedList([]),
    ]);
    assert.equal(run.status, 1);
    assert.match(
      run.stdout,
      /unexpected failure: the logger entry refuses to be called without a format\n\s+.*format/,
    );
  });

  test('says when a listed failure now passes', async () => {
    const expected = expectedList(['the logger entry is a function with compile\twas missing']);
    const run = await runCompat([
      '--morgan',
      checkout('morgan', { 'logger.js': loggerSuite }),
      '--expected',
      expected,
    ]);
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
    assert.match(run.stdout, /body-parser: 2 passed, 0 failed/);
  });
});
