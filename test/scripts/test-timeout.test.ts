// A test that hangs must fail by name within the default timeout, and the rest of its file must
// still run: checked on a fixture with a hanging test, run through the project's own runner.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// NODE_TEST_CONTEXT, set for this file by the runner, would make the nested run report to this
// process in the runner's own protocol instead of printing its report and exit code.
function runFixture(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/run-tests.mjs', 'test/helpers/fixtures/hanging.ts'],
      {
        cwd: root,
        env: { ...process.env, NODE_TEST_CONTEXT: undefined, TEST_TIMEOUT_MS: '1000' },
        timeout: 20_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, output: stdout + stderr });
      },
    );
  });
}

describe('a hanging test', () => {
  it('fails by name within the default timeout, and the tests after it still run', async () => {
    const { code, output } = await runFixture();
    assert.equal(code, 1, output);
    assert.match(
      output,
      /✖ waits for a response that never comes \(\d+(\.\d+)?ms\)\n\s+'test timed out after 1000ms'/,
    );
    assert.match(output, /✔ passes before the hang/);
    assert.match(output, /✔ passes after the hang/);
  });
});
