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
 * would, and resolves once it prints the address it listens on.
 */
export async function startExample(
  file: string,
  env: Record<string, string> = {},
): Promise<RunningExample> {
  const child: ChildProcess = spawn(process.execPath, [`examples/${file}`], {
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
