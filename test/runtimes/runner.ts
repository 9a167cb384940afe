// The small test runner of the suites for Bun and Deno (./smoke.ts, ./web.ts): neither runtime
// runs Node's test runner completely. Each check runs in turn under a time bound, prints `ok`,
// `ok # skip` or `not ok` with the reason, and the run ends with `N passed, N failed` (exit 1
// when any failed). scripts/ci.mjs runs each suite on each runtime.

export interface RunnerCheck {
  readonly name: string;
  /** Why the check is skipped, or undefined to run it. */
  readonly skip?: string | undefined;
  run(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 15_000;

/** The runtime this process is, as the suites name it. */
export const runtimeName =
  'Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : `node ${process.version}`;

export async function runChecks(title: string, checks: readonly RunnerCheck[]): Promise<void> {
  let passed = 0;
  let failed = 0;
  console.log(`# ${title} on ${runtimeName}`);
  for (const { name, skip, run } of checks) {
    if (skip !== undefined) {
      console.log(`ok - ${name} # skip ${skip}`);
      continue;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no result in ${CHECK_TIMEOUT_MS} ms`)),
        CHECK_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([run(), timeout]);
      passed += 1;
      console.log(`ok - ${name}`);
    } catch (err) {
      failed += 1;
      console.log(
        `not ok - ${name}\n  ${String((err as Error)?.stack ?? err).replaceAll('\n', '\n  ')}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  // A server or socket that a failed check left behind must not keep the runtime alive.
  process.exit(failed === 0 ? 0 : 1);
}
