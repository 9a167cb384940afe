import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

const root = new URL('../../', import.meta.url).pathname;

export interface RunningExample {
  /** `http://localhost:port` of the example's server. */
  readonly base: string;
  /** Everything the example printed so far. */
  output(): string;
  /** Resolves once the output matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): void;
}

/**
 * Starts `examples/<file>` on a free port (PORT=0) against the built package, as `npm start`
 * would, and resolves once it prints the address it listens on. `runner` is what comes before
 * the file on the command line: the runtime's own flags (`--import tsx`, Deno's `run`).
 */
export async function startExample(
  file: string,
  env: Record<string, string> = {},
  runner: readonly string[] = [],
): Promise<RunningExample> {
  const child: ChildProcess = spawn(process.execPath, [...runner, `examples/${file}`], {
    cwd: root,
    env: { ...process.env, PORT: '0', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout');
  stdout.setEncoding('utf8');
  let output = '';
  stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(() => {
    throw new Error(`example ${file} exited; it printed: ${output}`);
  });
  exited.catch(() => {});
  const waitFor = async (pattern: RegExp) => {
    while (!pattern.test(output)) await Promise.race([once(stdout, 'data'), exited]);
  };
  await waitFor(/listening on (http:\/\/\S+)/);
  return {
    base: /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '',
    output: () => output,
    waitFor,
    stop: () => child.kill(),
  };
}

/** An example served somewhere, and what it printed: the Web examples' checks need no more. */
export type ServedExample = Pick<RunningExample, 'base' | 'output' | 'waitFor'>;

/** A secret the examples' lines must never show. */
const SECRET = 'example-secret-4f1c';

/**
 * POSTs `body` as JSON to the example's item route, with a secret and a marker in the query:
 * the marker finds the request's line among the others.
 */
function postItem(example: ServedExample, path: string, marker: string, body: string) {
  return fetch(`${example.base}${path}?token=${SECRET}&check=${marker}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
}

/** The line of the request marked `marker`, once the example wrote it. */
async function lineOf(example: ServedExample, marker: string): Promise<string> {
  const pattern = new RegExp(`^.*check=${marker}.*$`, 'm');
  await example.waitFor(pattern);
  return pattern.exec(example.output())?.[0] ?? '';
}

/** A status as a line of `combined` or of `json` shows it. */
const statusIn = (line: string) =>
  /" (\d{3}) /.exec(line)?.[1] ?? /"http\.response\.status_code":(\d{3})/.exec(line)?.[1];

/**
 * What every Web example (examples/web/) does, whatever runs it: the checks of its item route
 * (`/items`, `/api/items` in Next.js), run by test/examples/web.test.ts on Node and workerd,
 * by test/runtimes/examples.ts on Bun and Deno, and by test/next/app.next.ts.
 */
export const webExampleChecks: ReadonlyArray<{
  readonly name: string;
  run(example: ServedExample, path: string): Promise<void>;
}> = [
  {
    name: 'a valid item is created (201) and logged',
    async run(example, path) {
      const res = await postItem(example, path, 'valid', '{"name":"lamp","quantity":2}');
      assert.equal(res.status, 201);
      const item = (await res.json()) as { id?: unknown };
      assert.deepEqual(
        { ...item, id: typeof item.id },
        {
          id: 'string',
          name: 'lamp',
          quantity: 2,
        },
      );
      const line = await lineOf(example, 'valid');
      assert.equal(statusIn(line), '201', line);
      assert.match(line, /POST/);
    },
  },
  {
    name: 'an item the schema refuses is a 422 problem document, logged as such',
    async run(example, path) {
      const res = await postItem(example, path, 'invalid', '{"name":"lamp","quantity":-1}');
      assert.equal(res.status, 422);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      const problem = (await res.json()) as { status: number; code: string; issues: unknown[] };
      assert.equal(problem.status, 422);
      assert.equal(problem.code, 'entity.validation.failed');
      assert.deepEqual(
        problem.issues.map((issue) => (issue as { path: unknown }).path),
        [['quantity']],
      );
      assert.equal(statusIn(await lineOf(example, 'invalid')), '422');
    },
  },
  {
    name: 'malformed JSON is a 400 problem document',
    async run(example, path) {
      const res = await postItem(example, path, 'malformed', '{"name":');
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.equal(((await res.json()) as { code: string }).code, 'entity.parse.failed');
    },
  },
  {
    name: 'a body over the limit is a 413 problem document',
    async run(example, path) {
      const body = JSON.stringify({ name: 'x'.repeat(20_000), quantity: 1 });
      const res = await postItem(example, path, 'large', body);
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as { code: string }).code, 'entity.too.large');
    },
  },
  {
    name: 'the secret in the query string is masked in every line',
    async run(example, path) {
      await (await postItem(example, path, 'masked', '{"name":"lamp","quantity":1}')).text();
      assert.match(await lineOf(example, 'masked'), /token=REDACTED&check=masked/);
      assert.doesNotMatch(example.output(), new RegExp(SECRET));
    },
  },
];
