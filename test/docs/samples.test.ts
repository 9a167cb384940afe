import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import ts from 'typescript';

// Every JavaScript and TypeScript block of the README and of every page in docs/ is compiled,
// against the built package as a user would import it, so a sample cannot rot: a renamed
// export, a removed option or a wrong signature fails here. TypeScript blocks are checked as
// strictly as our own code. JavaScript blocks are checked for what rots in JavaScript: syntax,
// modules and their exports, httpware's own members (`logger.json`, `parsers.text`), option
// names, argument counts. What only TypeScript users would have to write is allowed there:
// untyped parameters, values that may be null (`server.address().port`), values wider than a
// declared type, and properties the application's own objects carry (`req.body`, `req.id`).
const root = new URL('../../', import.meta.url).pathname;
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

// Names the fragments use without defining them: an Express app and the application's own
// handlers. A sample that defines one of them shadows the declaration.
const globals = `
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
declare global {
  const app: Express;
  function handle(req: IncomingMessage, res: ServerResponse): void;
  function fail(res: ServerResponse, err: unknown): void;
  const login: RequestHandler;
  const createUser: RequestHandler;
  function handleEvent(event: unknown): void;
}
export {};
`;

interface Sample {
  page: string;
  line: number;
  lang: string;
  file: string;
  code: string;
}

const CODE = new Set(['js', 'javascript', 'ts', 'typescript']);
/** Fenced blocks of `page`, with the line each starts on. */
function blocks(page: string): Omit<Sample, 'file'>[] {
  const text = readFileSync(join(root, page), 'utf8');
  const found = [];
  for (const m of text.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, m.index).split('\n').length;
    found.push({ page, line, lang: m[1] as string, code: m[2] as string });
  }
  return found;
}

const samples: Sample[] = pages.flatMap((page) =>
  blocks(page)
    .filter((b) => CODE.has(b.lang))
    .map((b) => {
      const js = b.lang.startsWith('j');
      const ext = js ? (/\brequire\(/.test(b.code) ? 'cjs' : 'mjs') : 'mts';
      // Beside this test, so the package's own name resolves to the build through package.json.
      const name = `sample-${b.page.replace(/\W/g, '-')}-${b.line}.${ext}`;
      return { ...b, file: join(root, 'test/docs', name) };
    }),
);

/** The JavaScript allowances: implicit `any`, and the body properties the parsers add. */
// Implicit any (7005, 7006, 7031, 7034), possibly null or undefined (2531, 2532, 18047,
// 18048), not assignable (2322, 2345).
const JAVASCRIPT_ALLOWS = new Set([7005, 7006, 7031, 7034, 2531, 2532, 18047, 18048, 2322, 2345]);

/** Whether a JavaScript sample may have `d` (see above); `ours` are httpware's exported names. */
function javascriptAllows(d: ts.Diagnostic, ours: Set<string>): boolean {
  if (JAVASCRIPT_ALLOWS.has(d.code)) return true;
  const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  const owner = /^Property '[^']+' does not exist on type '([\w$]+)/.exec(text)?.[1];
  return d.code === 2339 && owner !== undefined && !ours.has(owner);
}

/** The names the root entry exports, types included: the objects whose members must exist. */
function exportedNames(program: ts.Program): Set<string> {
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(join(root, 'entries/index.d.mts'));
  const symbol = entry && checker.getSymbolAtLocation(entry);
  assert.ok(symbol, 'entries/index.d.mts is in the program');
  return new Set(checker.getExportsOfModule(symbol).map((e) => e.name));
}

/** Diagnostics of every sample, by file, from one program. */
function compile(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)),
    },
  );
  assert.ok(config);
  const options = { ...config.options, allowJs: true, checkJs: true, noEmit: true };
  const files = new Map(samples.map((s) => [s.file, s.code]));
  const globalsFile = join(root, 'test/docs/sample-globals.d.ts');
  files.set(globalsFile, globals);
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const code = files.get(f);
    return code === undefined
      ? getSourceFile.call(host, f, language, ...rest)
      : ts.createSourceFile(f, code, language, true);
  };
  const program = ts.createProgram(
    [...files.keys(), join(root, 'entries/index.d.mts')],
    options,
    host,
  );
  const ours = exportedNames(program);
  const byFile = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '';
    if (/\.[cm]js$/.test(file) && javascriptAllows(d, ours)) continue;
    const where =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    const list = byFile.get(file) ?? [];
    list.push(`line ${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    byFile.set(file, list);
  }
  return byFile;
}

describe('the documentation samples', () => {
  let diagnostics: Map<string, string[]>;
  before(() => {
    diagnostics = compile();
  });

  it('finds samples in the README and the docs pages', () => {
    assert.ok(samples.some((s) => s.page === 'README.md'));
    assert.ok(samples.some((s) => s.page.startsWith('docs/')));
  });

  for (const page of pages) {
    it(`${page}: every code block names its language`, () => {
      const bare = blocks(page).filter((b) => b.lang === '');
      assert.deepEqual(
        bare.map((b) => `${page}:${b.line}`),
        [],
      );
    });

    it(`${page}: every JavaScript and TypeScript sample compiles`, () => {
      const failures = samples
        .filter((s) => s.page === page)
        .flatMap((s) =>
          (diagnostics.get(s.file) ?? []).map((d) => `${page}:${s.line} (block) ${d}`),
        );
      assert.deepEqual(failures, []);
    });
  }

  it('the shared declarations compile', () => {
    assert.deepEqual(diagnostics.get(join(root, 'test/docs/sample-globals.d.ts')) ?? [], []);
  });
});
