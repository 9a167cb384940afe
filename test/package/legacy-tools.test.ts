import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { npmInstall, pack, run } from '../helpers/packed.js';
import {
  jestEntriesTest,
  jestJsdomTest,
  legacyCjsConsumer,
  legacyEsConsumer,
  legacyTsconfig,
} from './legacy-fixtures.js';

// The tools that ignore `exports`, as users still run them: Jest 26 and 27 resolve
// `httpware/logger` as a path (the logger/ folder's package.json `main`), and run it in jsdom
// when a project asks (Jest 26's default; jest-environment-jsdom comes with Jest 27, so the
// jsdom run installs nothing more; test/package/jsdom-load.test.ts checks Jest 26's globals
// and that loading reads none), and TypeScript before
// 4.7 reads neither `exports` nor `.d.cts` (package.json's `typesVersions` "<4.7" sends it to
// dist/legacy/). The oldest of each is installed beside the packed tarball, at exact versions.
// @types/node 18.11.9 declares TypeScript 4.1 as its oldest (its `typeScriptVersion`).
const JEST = 'jest@27.5.1';
const TYPESCRIPT = 'typescript@4.1.6';
const NODE_TYPES = '@types/node@18.11.9';

describe('the packed package under tools that ignore exports', () => {
  let scratch = '';
  let installed = '';

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'httpware-legacy-'));
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true }),
    );
    // The tools first, the tarball alone after, so what the second install prints is about
    // httpware (a later deprecation notice in Jest's tree cannot fail this file).
    npmInstall(scratch, [JEST, TYPESCRIPT, NODE_TYPES]);
    installed = npmInstall(scratch, [pack(scratch).tarball]);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('installing the tarball prints no npm warning (no install-time script to approve)', () => {
    const warnings = installed.split('\n').filter((line) => /^npm warn/i.test(line));
    assert.deepEqual(warnings, []);
    assert.match(installed, /added \d+ package/);
  });

  test('Jest 27 resolves httpware/logger and httpware/parsers to the drop-in shapes', () => {
    mkdirSync(join(scratch, 'jest'));
    writeFileSync(join(scratch, 'jest/entries.test.js'), jestEntriesTest);
    const jest = join(scratch, 'node_modules/jest/bin/jest.js');
    const printed = run(process.execPath, [jest, '--rootDir', 'jest', '--ci', '--json'], scratch);
    const report = JSON.parse(printed) as { numPassedTests: number; numFailedTests: number };
    assert.deepEqual([report.numPassedTests, report.numFailedTests], [3, 0]);
  });

  test("Jest 27's jsdom environment loads both entries and serves a request through them", () => {
    mkdirSync(join(scratch, 'jest-jsdom'));
    writeFileSync(join(scratch, 'jest-jsdom/jsdom.test.js'), jestJsdomTest);
    const jest = join(scratch, 'node_modules/jest/bin/jest.js');
    // A request left unanswered (a global the environment lacks, read while serving it) fails
    // by Jest's 5-second test timeout; `--forceExit` then ends the run its server holds open.
    const args = [jest, '--rootDir', 'jest-jsdom', '--ci', '--json', '--forceExit'];
    const report = JSON.parse(run(process.execPath, args, scratch)) as {
      numPassedTests: number;
      numFailedTests: number;
    };
    assert.deepEqual([report.numPassedTests, report.numFailedTests], [3, 0]);
  });

  test('TypeScript 4.1 (node resolution) type-checks require and ES imports of every entry', () => {
    writeFileSync(join(scratch, 'cjs.ts'), legacyCjsConsumer);
    writeFileSync(join(scratch, 'es.ts'), legacyEsConsumer);
    writeFileSync(join(scratch, 'tsconfig.json'), legacyTsconfig(['cjs.ts', 'es.ts']));
    const tsc = join(scratch, 'node_modules/typescript/bin/tsc');
    assert.match(
      readFileSync(join(scratch, 'node_modules/typescript/package.json'), 'utf8'),
      /"version": "4\.1\.6"/,
    );
    run(process.execPath, [tsc, '-p', '.'], scratch);
  });
});
