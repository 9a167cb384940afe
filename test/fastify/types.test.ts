// httpware/fastify's types as a consumer project compiles them: a scratch project whose
// node_modules holds this package (as installed, through its `exports`), fastify and
// @types/node, type-checked by tsc under ESM and CommonJS. `register` must check the plugins'
// options: each `@ts-expect-error` fails the check if the misuse compiles. Needs dist/ built.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../helpers/packed.js';

const consumer = (imports: string) => `${imports}

const app = Fastify({ disableRequestLogging: true });
app.register(httpwareLogger, { format: 'combined', requestId: true, redact: true });
app.register(httpwareLogger, { format: 'json', stream: { write: (line: string) => void line } });
app.register(httpwareParsers, { json: { limit: '1mb', strict: true }, urlencoded: false, raw: true });
const h2 = Fastify({ http2: true });
h2.register(httpwareLogger, { format: 'json' });
h2.register(httpwareParsers, { raw: true });
// @ts-expect-error: not a logger option
app.register(httpwareLogger, { fromat: 'tiny' });
// @ts-expect-error: requestId is a boolean
app.register(httpwareLogger, { requestId: 'x-request-id' });
// @ts-expect-error: a limit is a number or a size string
app.register(httpwareParsers, { json: { limit: [1] } });
// @ts-expect-error: not a parser
app.register(httpwareParsers, { xml: true });
app.register(httpwareParsers, { json: { emptyBody: 'object', strict: true } });
// @ts-expect-error: emptyBody is 'error' or 'object'
app.register(httpwareParsers, { json: { emptyBody: 'empty' } });
`;

const tsconfig = (module: string) =>
  JSON.stringify({
    compilerOptions: {
      module,
      moduleResolution: module,
      target: 'ES2022',
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      types: ['node'],
      skipLibCheck: true,
    },
    include: ['*.ts'],
  });

describe('httpware/fastify in a consumer project', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'httpware-fastify-types-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const modules = join(scratch, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  symlinkSync(packageRoot, join(modules, 'httpware'));
  symlinkSync(join(packageRoot, 'node_modules/fastify'), join(modules, 'fastify'));
  symlinkSync(join(packageRoot, 'node_modules/@types/node'), join(modules, '@types/node'));
  const tsc = join(packageRoot, 'node_modules/typescript/bin/tsc');

  function check(project: string, type: string, file: string, source: string): void {
    const dir = join(scratch, project);
    mkdirSync(dir);
    symlinkSync(modules, join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig('nodenext'));
    writeFileSync(join(dir, file), source);
    try {
      execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    } catch (err) {
      assert.fail((err as { stdout?: string }).stdout ?? String(err));
    }
  }

  it('type-checks register() options under ESM', () => {
    check(
      'esm',
      'module',
      'app.ts',
      consumer(
        "import Fastify from 'fastify';\nimport { httpwareLogger, httpwareParsers } from 'httpware/fastify';",
      ),
    );
  });

  it('type-checks register() options under CommonJS', () => {
    check(
      'cjs',
      'commonjs',
      'app.ts',
      consumer(
        "import Fastify = require('fastify');\nimport { httpwareLogger, httpwareParsers } from 'httpware/fastify';",
      ),
    );
  });
});
