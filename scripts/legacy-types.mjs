#!/usr/bin/env node
// Declarations for TypeScript before 4.7, written into dist/legacy/ after tsup's build
// (`npm run build`). Those compilers know neither `.d.cts` nor `exports`: package.json's
// `typesVersions` range "<4.7" and the subpath folders (logger/, parsers/) send them here.
//
// Each file is a CommonJS declaration of the same entry (entries/*.d.cts and tsup's bundled
// dist/index.d.cts), as a `.d.ts`, with two changes only:
// - `import ... from '../dist/index.cjs'` names `./types` (the bundled declarations, copied
//   beside them): TypeScript 4.1 looks for `index.cjs.d.ts`, not `index.d.cts`;
// - a `type` modifier on one name of an import or export list (`export { type A, B }`, which
//   tsup writes and TypeScript reads from 4.5 on) is dropped. The names so marked are types
//   only (src/index.ts re-exports its types with `export type`), so `export { A, B }` exports
//   the same.
// Anything else TypeScript 4.1 cannot read fails test/package/legacy-tools.test.ts, which
// type-checks a consumer with it. The edits are made on the devDependency TypeScript's syntax
// tree. No dependency is added for this: downlevel-dts, the usual tool, depends on
// `typescript@next` (a nightly build at every install).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist/legacy');

/** Where each legacy file comes from. */
const SOURCES = {
  'types.d.ts': 'dist/index.d.cts',
  'index.d.ts': 'entries/index.d.cts',
  'logger.d.ts': 'entries/logger.d.cts',
  'parsers.d.ts': 'entries/parsers.d.cts',
};
/** Loaded by `/// <reference path>` from the entries, copied as they are. */
const REFERENCED = ['entries/request-id.d.ts', 'entries/raw-body.d.ts'];
/** The relative module specifiers the entries use, and what they become beside the copies. */
const SPECIFIERS = { '../dist/index.cjs': './types' };

/** The source text with the legacy changes made, by edits of its own text (comments kept). */
function legacyDeclaration(text, fileName) {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  const visit = (node) => {
    if ((ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) && node.isTypeOnly) {
      const named = node.propertyName ?? node.name;
      edits.push({ start: node.getStart(file), end: named.getStart(file), text: '' });
    }
    if (ts.isStringLiteral(node) && isModuleSpecifier(node)) {
      const specifier = node.text;
      if (specifier.startsWith('.')) {
        const to = SPECIFIERS[specifier];
        if (to === undefined) {
          throw new Error(
            `${fileName}: no legacy path for '${specifier}' (scripts/legacy-types.mjs)`,
          );
        }
        edits.push({ start: node.getStart(file) + 1, end: node.getEnd() - 1, text: to });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return edits
    .sort((a, b) => b.start - a.start)
    .reduce((result, e) => result.slice(0, e.start) + e.text + result.slice(e.end), text);
}

function isModuleSpecifier(node) {
  const parent = node.parent;
  return (
    ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) &&
      parent.moduleSpecifier === node) ||
    ts.isExternalModuleReference(parent) ||
    (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent))
  );
}

function main() {
  mkdirSync(out, { recursive: true });
  for (const [name, source] of Object.entries(SOURCES)) {
    const text = readFileSync(join(root, source), 'utf8');
    writeFileSync(join(out, name), legacyDeclaration(text, source));
  }
  for (const source of REFERENCED) {
    copyFileSync(join(root, source), join(out, source.slice(source.lastIndexOf('/') + 1)));
  }
}

main();
