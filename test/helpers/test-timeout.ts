// Gives every `it` and `test` a default timeout, so a regression that makes a test hang fails
// that test, under its own name, instead of holding the run. Loaded before the test files by
// scripts/run-tests.mjs (`--import`, which the runner passes on to each file's process).
//
// Node 20's `--test-timeout` is not enough: it bounds each test *file* in the runner's child
// processes (the tests inside get no timeout), so a hang cancels the whole file and the report
// does not say which test hung. node:test has no setting for a default per-test timeout, so
// `it` and `test` are wrapped here to add `{ timeout }` when a test sets none; suites are left
// alone, as a suite's timeout would bound all its tests together. Tests inherit their parent's
// timeout, so subtests of a wrapped `test` are bounded by it too.
import { createRequire, syncBuiltinESMExports } from 'node:module';

/** Per-test default; `TEST_TIMEOUT_MS` overrides it (e.g. lower to try a hang, higher to debug). */
export const TEST_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_MS) || 60_000;

type TestFn = (...args: unknown[]) => unknown;

/** `fn(name?, options?, body?)` with `timeout` added to the options when they have none. */
function withDefaultTimeout(fn: TestFn): TestFn {
  const wrapped = (...args: unknown[]) => {
    const name = typeof args[0] === 'string' ? args.shift() : undefined;
    const options = args[0] !== null && typeof args[0] === 'object' ? (args.shift() as object) : {};
    return fn(name, { timeout: TEST_TIMEOUT_MS, ...options }, ...args);
  };
  // `it.skip`, `it.only`, `it.todo` keep working (they are rarely used and need no timeout).
  return Object.assign(wrapped, fn);
}

// The ES module 'node:test' mirrors the CommonJS one; syncBuiltinESMExports copies the
// wrapped functions over to the named ESM exports the test files import.
const nodeTest = createRequire(import.meta.url)('node:test') as Record<'it' | 'test', TestFn>;
nodeTest.it = withDefaultTimeout(nodeTest.it);
nodeTest.test = withDefaultTimeout(nodeTest.test);
syncBuiltinESMExports();
