// The CI matrix (scripts/ci.mjs) and the runtime fetcher it uses (scripts/runtimes.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain ESM script without types
import { JOBS, NODE_LINES } from '../../scripts/ci.mjs';
// @ts-expect-error: a plain ESM script without types
import { parseRuntime } from '../../scripts/runtimes.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

describe('the CI matrix', () => {
  it('starts at the lowest Node line that engines admits', () => {
    assert.equal(pkg.engines.node, `>=${NODE_LINES[0]}`);
  });

  it('runs the line this process runs on', () => {
    assert.ok(NODE_LINES.includes(process.versions.node.split('.')[0]));
  });

  it('runs every Node line, then Bun and Deno, then the Next.js app', () => {
    assert.deepEqual(JOBS, [
      ...NODE_LINES.map((line: string) => `node@${line}`),
      'bun@1',
      'deno@2',
      'next',
    ]);
  });
});

describe('runtime names', () => {
  it('are a runtime and a major version', () => {
    assert.deepEqual(parseRuntime('node@26'), ['node', '26']);
    assert.deepEqual(parseRuntime('deno@2'), ['deno', '2']);
  });

  it('refuse anything else', () => {
    for (const text of ['node', 'node@', 'node@22.1', 'python@3', 'bun@latest']) {
      assert.throws(() => parseRuntime(text), /expected runtime@major/);
    }
  });
});
