// No code is generated from format strings: the logger works in a process started with
// --disallow-code-generation-from-strings (where morgan's `new Function` throws).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFixture } from '../helpers/logger.js';

describe('no code generation from strings', () => {
  it('logs every kind of format under --disallow-code-generation-from-strings', async () => {
    const result = await runFixture('no-code-generation.ts', {
      nodeFlags: ['--disallow-code-generation-from-strings'],
      env: { NO_COLOR: '' },
    });
    assert.equal(result.code, 0, result.stderr);
    const { codeGeneration, lines } = JSON.parse(result.stdout) as {
      codeGeneration: string;
      lines: string[];
    };
    assert.equal(codeGeneration, 'EvalError', 'the flag is in force');
    assert.equal(lines.length, 8);
    assert.ok(lines.includes('GET /x 200 2 - <t> ms\n'), 'tiny');
    assert.ok(lines.includes('GET /x req-42\n'), 'a registered format with a custom token');
    assert.ok(lines.includes('200 2\n'), 'a compiled format');
    assert.ok(lines.includes('fn GET 200\n'), 'a format function');
  });
});
