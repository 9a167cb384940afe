import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readDeclarations, sourceExports } from '../helpers/declared-values.js';
import { devDependencies, npmInstall, pack, packageRoot as root, run } from '../helpers/packed.js';
import {
  cjsCheck,
  esmCheck,
  runtimeTypeofProbe,
  tsBundlerCheck,
  tsCjsCheck,
  tsClassicCheck,
  tsconfig,
  tsconfigNode10,
  tsEsmCheck,
  withoutOpenTelemetry,
} from './fixtures.js';
import {
  bodyParserSnippet,
  bundlerOptions,
  classicOptions,
  esmNamedSnippet,
  httpwareSnippet,
  type ImportStyle,
  koaSnippet,
  loggerOnlySnippet,
  morganSnippet,
  node16Options,
  schemaSnippet,
} from './types-fixtures.js';

// What users install is what is tested: the package is packed (as `npm publish` would), the
// tarball installed into a scratch project, and every entry loaded from CommonJS, ESM and
// type-checked TypeScript. `npm test` builds dist/ before the tests run.

/** The relative targets of a Markdown page's links (anchors dropped), outside code blocks. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** A value computed on first use, then shared (the tests of one run share one scratch project). */
function memo<T>(compute: () => T): () => T {
  let result: { value: T } | undefined;
  return () => {
    result ??= { value: compute() };
    return result.value;
  };
}

describe('the packed package', () => {
  let scratch = '';
  let tarball = '';
  let files: string[] = [];

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'httpware-pack-'));
    ({ tarball, files } = pack(scratch));
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true }),
    );
    npmInstall(scratch, [
      tarball,
      ...[
        'typescript',
        '@types/node',
        '@types/express',
        '@types/connect',
        '@types/morgan',
        '@types/body-parser',
        'zod',
        'valibot',
        'arktype',
        'koa',
        '@types/koa',
      ].map((name) => `${name}@${devDependencies[name]}`),
    ]);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('ships the build, the entries, the pages its readme and docs link to, and the licence', () => {
    const unexpected = files.filter(
      (f) =>
        !/^(dist\/|entries\/|docs\/|examples\/|(logger\/|parsers\/|fastify\/)?package\.json$|README\.md$|LICENSE$)/.test(
          f,
        ) && !['bench/README.md', 'compat/expected-failures.txt'].includes(f),
    );
    assert.deepEqual(unexpected, []);
    assert.ok(files.includes('dist/index.cjs'));
    assert.ok(files.includes('dist/index.d.cts'));
  });

  test('every relative link of the readme and the shipped docs resolves inside the tarball', () => {
    const pages = files.filter((f) => f.endsWith('.md'));
    const broken = pages.flatMap((page) =>
      relativeLinks(readFileSync(join(root, page), 'utf8'))
        .map((link) => posix.join(posix.dirname(page), link).replace(/\/$/, ''))
        .filter((target) => !files.some((f) => f === target || f.startsWith(`${target}/`)))
        .map((target) => `${page} -> ${target}`),
    );
    assert.ok(pages.length > 5, 'the docs are shipped');
    assert.deepEqual(broken, []);
  });

  test('loads every entry from CommonJS with the drop-in shapes', () => {
    writeFileSync(join(scratch, 'check.cjs'), cjsCheck);
    assert.equal(run(process.execPath, ['check.cjs'], scratch), 'cjs ok\n');
  });

  test('without OpenTelemetry installed, looks for none of it and logs the traceparent as before', () => {
    writeFileSync(join(scratch, 'no-otel.cjs'), withoutOpenTelemetry);
    const seen = JSON.parse(run(process.execPath, ['no-otel.cjs'], scratch));
    assert.deepEqual(seen, {
      looked: ['@opentelemetry/api-logs'],
      warnings: [],
      otel: 'TypeError: option otel: true needs @opentelemetry/api-logs (npm install @opentelemetry/api-logs), or pass otel: { loggerProvider }',
      textLine: '4bf92f3577b34da6a3ce929d0e0e4736 - -',
      trace: '4bf92f3577b34da6a3ce929d0e0e4736',
      span: null,
    });
  });

  test('loads every entry from ESM, sharing one implementation with CommonJS', () => {
    writeFileSync(join(scratch, 'check.mjs'), esmCheck);
    assert.equal(run(process.execPath, ['check.mjs'], scratch), 'esm ok\n');
  });

  test('type-checks from TypeScript in both module systems, without Express types installed in the program', () => {
    writeFileSync(join(scratch, 'esm.ts'), tsEsmCheck);
    writeFileSync(join(scratch, 'cjs.cts'), tsCjsCheck);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
    );
    writeFileSync(join(scratch, 'tsconfig.json'), tsconfig);
    run(process.execPath, [join(scratch, 'node_modules/typescript/bin/tsc'), '-p', '.'], scratch);
  });

  test('type-checks from a classic CommonJS TypeScript project (node10 resolution)', () => {
    writeFileSync(join(scratch, 'classic.ts'), tsClassicCheck);
    writeFileSync(join(scratch, 'tsconfig.node10.json'), tsconfigNode10);
    const tsc = join(scratch, 'node_modules/typescript/bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.node10.json'], scratch);
  });
  test('type-checks from a bundler project without esModuleInterop', () => {
    const file = write('bundled.ts', tsBundlerCheck);
    assert.deepEqual(typecheck('tsconfig.bundler.json', bundlerOptions, [file]), []);
  });

  // The declarations as a consumer's compiler reads them, one program per way of loading.
  const entries = ['httpware', 'httpware/logger', 'httpware/parsers', 'httpware/koa'];
  const declarations = memo(() =>
    (['import', 'require', 'node10'] as const).map(
      (mode) => [mode, readDeclarations(scratch, mode, entries)] as const,
    ),
  );

  test('every value the declarations declare exists at runtime, under import and require', () => {
    const declared = declarations().flatMap(([, byEntry]) =>
      [...byEntry.values()].flatMap((entry) => entry.values),
    );
    writeFileSync(join(scratch, 'typeof-probe.mjs'), runtimeTypeofProbe);
    const seen = JSON.parse(
      run(process.execPath, ['typeof-probe.mjs'], scratch, JSON.stringify(declared)),
    ) as string[];
    const wrong = declared
      .map((value, i) => ({ ...value, runtime: seen[i] }))
      .filter((v) => v.runtime === 'undefined' || (v.callable && v.runtime !== 'function'))
      .map((v) => `${v.mode} ${[v.specifier, ...v.path].join('.')} (${v.file}): ${v.runtime}`);
    assert.deepEqual(wrong, []);
    // The derivation itself: known values of each entry are among those found.
    const found = (mode: string, specifier: string) =>
      declared
        .filter((v) => v.mode === mode && v.specifier === specifier)
        .map((v) => v.path.join('.'));
    assert.ok(found('import', 'httpware').includes('HttpwareError'));
    assert.ok(found('import', 'httpware/logger').includes('token'));
    assert.ok(found('require', 'httpware/logger').includes('token'));
    assert.ok(found('node10', 'httpware/parsers').includes('urlencoded'));
    assert.ok(found('require', 'httpware/parsers').includes('json.read'));
    assert.ok(found('import', 'httpware/parsers').includes('raw.read'));
  });

  test('each entry names every public type of its part, under import and require', () => {
    const typesOf = (file: string) => sourceExports(join(root, 'src', file));
    const errorTypes = ['AnyHttpwareError', 'ErrorDetails', 'ErrorType', 'HttpwareErrorOf'];
    const wanted: Record<string, string[]> = {
      'httpware/logger': [...typesOf('logger/types.ts'), ...typesOf('middleware.ts')],
      'httpware/parsers': [...typesOf('parsers/types.ts'), ...typesOf('middleware.ts')],
      // The Koa types, and the options its factories take under the names the other entries give.
      'httpware/koa': [
        ...typesOf('koa/types.ts'),
        ...['JsonOptions', 'LoggerOptions', 'ParserOptions', 'RawOptions', 'TextOptions'],
        'UrlencodedOptions',
      ],
    };
    wanted.httpware = [
      ...(wanted['httpware/logger'] ?? []),
      ...(wanted['httpware/parsers'] ?? []),
      ...typesOf('koa/types.ts'),
      ...errorTypes,
    ];
    const byMode = new Map(declarations());
    for (const specifier of entries) {
      // ESM reaches by name every type that CommonJS reaches (the @types names included).
      const cjs = byMode.get('require')?.get(specifier)?.names ?? new Map();
      const esm = byMode.get('import')?.get(specifier)?.names ?? new Map();
      const onlyCjs = [...cjs.keys()].filter((name) => !esm.has(name));
      assert.deepEqual(onlyCjs, [], `${specifier}: names ESM lacks`);
    }
    for (const [mode, byEntry] of declarations()) {
      for (const [specifier, names] of Object.entries(wanted)) {
        assert.ok(names.length > 10, specifier);
        const exported = byEntry.get(specifier)?.names ?? new Map();
        const missing = names.filter((name) => !exported.has(name));
        assert.deepEqual(missing, [], `${specifier} under ${mode}`);
      }
    }
  });

  // Every consumer of the @types comparison and of httpware's own type promises, type-checked
  // by one tsc run per set of compiler options; each test reads the errors of its own files.
  const node16Errors = memo(() => {
    const files = [
      ...writeTypesSnippets(['require', 'default'], 'cts'),
      ...writeTypesSnippets(['default'], 'mts'),
      write('at-named.mts', esmNamedSnippet('morgan', 'body-parser')),
      write('hw-named.mts', esmNamedSnippet('httpware/logger', 'httpware/parsers')),
      write('own.cts', httpwareSnippet("import express = require('express');")),
      write('own.mts', httpwareSnippet("import express from 'express';")),
      write('own-schema.cts', schemaSnippet('cjs')),
      write('own-schema.mts', schemaSnippet('esm')),
    ];
    return typecheck('tsconfig.node16.json', node16Options, files);
  });
  const classicErrors = memo(() =>
    typecheck('tsconfig.classic.json', classicOptions, writeTypesSnippets(['star'], 'ts')),
  );

  test('code written against @types/morgan and @types/body-parser compiles with only its import source changed', () => {
    // Errors in a declaration file of the package count here and in the next test.
    assert.deepEqual(
      node16Errors().filter((e) => !e.startsWith('own.')),
      [],
    );
    assert.deepEqual(classicErrors(), []);
  });

  test('types: type-only names beside the default import, req.id and req.rawBody on Express, HttpwareError narrowing, validated bodies typed from zod, valibot and arktype schemas, read() typed, misuse refused', () => {
    assert.deepEqual(
      node16Errors().filter((e) => !e.startsWith('at-') && !e.startsWith('hw-')),
      [],
    );
  });

  test('types: httpware/koa middleware go to a Koa app, with ctx.request.body and rawBody typed', () => {
    const files = [
      write('koa-app.cts', koaSnippet('cjs')),
      write('koa-app.mts', koaSnippet('esm')),
    ];
    assert.deepEqual(typecheck('tsconfig.koa.json', node16Options, files), []);
  });

  test('types: the logger entry alone adds req.id to Express, not req.rawBody', () => {
    const file = write('logger-only.mts', loggerOnlySnippet);
    assert.deepEqual(typecheck('tsconfig.logger-only.json', node16Options, [file]), []);
  });

  function write(file: string, text: string): string {
    writeFileSync(join(scratch, file), text);
    return file;
  }

  /** The @types snippets in the given styles, once importing @types' packages, once httpware. */
  function writeTypesSnippets(styles: ImportStyle[], ext: string): string[] {
    return styles.flatMap((style) => [
      write(`at-morgan-${style}.${ext}`, morganSnippet(style, 'morgan')),
      write(`at-body-parser-${style}.${ext}`, bodyParserSnippet(style, 'body-parser')),
      write(`hw-morgan-${style}.${ext}`, morganSnippet(style, 'httpware/logger')),
      write(`hw-body-parser-${style}.${ext}`, bodyParserSnippet(style, 'httpware/parsers')),
    ]);
  }

  /** Type-checks `files` in the scratch project; returns tsc's errors, one string each. */
  function typecheck(name: string, compilerOptions: object, files: string[]): string[] {
    writeFileSync(join(scratch, name), JSON.stringify({ compilerOptions, files }));
    const tsc = join(scratch, 'node_modules/typescript/bin/tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', name], { cwd: scratch, encoding: 'utf8' });
      return [];
    } catch (err) {
      const output = (err as { stdout?: string }).stdout ?? String(err);
      // A diagnostic starts at the line's start; its explanation lines are indented.
      return output.split(/\n(?=\S)/).filter((line) => line.trim() !== '');
    }
  }
});
