// The values a package's type declarations promise, read with the TypeScript compiler the way a
// consumer's compiler reads them: a probe file in the consumer project imports each entry, and
// the checker resolves the import through the package's `exports` (or `typesVersions`) to the
// declaration file it would use. A name with a value meaning (a const, a function, a class, an
// export= target and its properties, and the members of a function among them, such as
// `json.read`) must then exist at runtime; a type-only name need not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** How a consumer loads an entry: ESM `import`, CommonJS `require` (node16), or node10. */
export type LoadMode = 'import' | 'require' | 'node10';

/** One value the declarations promise: `path` from the module (`[]` is the module itself). */
export interface DeclaredValue {
  readonly mode: LoadMode;
  readonly specifier: string;
  readonly path: readonly string[];
  /** True when the declared type can be called or constructed: it must be a function. */
  readonly callable: boolean;
  /** The declaration file the name was read from, for the failure message. */
  readonly file: string;
}

const probeFiles: Record<LoadMode, string> = {
  import: 'declared-values.mts',
  require: 'declared-values.cts',
  node10: 'declared-values-node10.ts',
};

function probeSource(mode: LoadMode, specifiers: readonly string[]): string {
  return specifiers
    .map((specifier, i) =>
      mode === 'import'
        ? `import * as m${i} from '${specifier}';\nvoid m${i};`
        : `import m${i} = require('${specifier}');\nvoid m${i};`,
    )
    .join('\n');
}

function compilerOptions(mode: LoadMode): ts.CompilerOptions {
  const common = { strict: true, noEmit: true, types: ['node'], target: ts.ScriptTarget.ES2022 };
  return mode === 'node10'
    ? {
        ...common,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
      }
    : { ...common, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };
}

const isValue = (symbol: ts.Symbol): boolean => (symbol.flags & ts.SymbolFlags.Value) !== 0;

function isCallable(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  const type = checker.getTypeOfSymbol(symbol);
  return type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0;
}

function fileOf(symbol: ts.Symbol): string {
  return symbol.declarations?.[0]?.getSourceFile().fileName ?? '(unknown)';
}

/** The module the probe's `index`th import resolves to; throws when it resolves to none. */
function importedModule(
  checker: ts.TypeChecker,
  probe: ts.SourceFile,
  index: number,
  what: string,
): ts.Symbol {
  const statement = probe.statements.filter(
    (s) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s),
  )[index];
  const literal =
    statement && ts.isImportDeclaration(statement)
      ? statement.moduleSpecifier
      : statement && ts.isImportEqualsDeclaration(statement)
        ? (statement.moduleReference as ts.ExternalModuleReference).expression
        : undefined;
  const moduleSymbol = literal && checker.getSymbolAtLocation(literal);
  if (!moduleSymbol) throw new Error(`${what} resolves to no declarations`);
  return moduleSymbol;
}

/** What the declarations of one entry give a consumer, under one way of loading it. */
export interface EntryDeclarations {
  /** The values, which must exist at runtime. */
  readonly values: DeclaredValue[];
  /**
   * Every name the module exports (its namespace's, for an `export =` module), with whether
   * it is a type only: what `import { type X }` and `entry.X` can reach.
   */
  readonly names: Map<string, 'type' | 'value'>;
}

/**
 * Reads the package's declarations for each of `specifiers` under `mode`, as the compiler
 * resolves them from `projectDir` (where the package is installed), with one program. Throws
 * when an entry resolves to no declarations at all.
 */
export function readDeclarations(
  projectDir: string,
  mode: LoadMode,
  specifiers: readonly string[],
): Map<string, EntryDeclarations> {
  const probe = join(projectDir, probeFiles[mode]);
  writeFileSync(probe, probeSource(mode, specifiers));
  const program = ts.createProgram([probe], compilerOptions(mode));
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe);
  if (source === undefined) throw new Error(`the probe ${probe} was not read`);
  const resolve = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const entries = new Map<string, EntryDeclarations>();
  specifiers.forEach((specifier, i) => {
    const moduleSymbol = importedModule(checker, source, i, `${specifier} (${mode})`);
    const value = (path: string[], symbol: ts.Symbol, file: string): DeclaredValue => ({
      mode,
      specifier,
      path,
      callable: isCallable(checker, symbol),
      file,
    });
    const values: DeclaredValue[] = [];
    // A function's own members are values too (`json.read`, `logger.token`): one level down.
    const withMembers = (path: string[], symbol: ts.Symbol, file: string): void => {
      const found = value(path, symbol, file);
      values.push(found);
      if (!found.callable || path.length > 1) return;
      for (const member of checker.getTypeOfSymbol(symbol).getProperties()) {
        // `prototype` is every function's; `__@` names are symbol keys (Symbol.hasInstance).
        if (member.name === 'prototype' || member.name.startsWith('__@')) continue;
        values.push(value([...path, member.name], member, file));
      }
    };
    const names = new Map<string, 'type' | 'value'>();
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      names.set(exported.name, isValue(resolve(exported)) ? 'value' : 'type');
    }
    const exportEquals = moduleSymbol.exports?.get(ts.InternalSymbolName.ExportEquals);
    if (exportEquals !== undefined) {
      // `export =`: the module is that value, and each property of its type is reachable.
      const target = resolve(exportEquals);
      values.push(value([], target, fileOf(target)));
      for (const property of checker.getTypeOfSymbol(target).getProperties()) {
        withMembers([property.name], property, fileOf(target));
      }
    } else {
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const resolved = resolve(exported);
        if (isValue(resolved)) withMembers([exported.name], resolved, fileOf(resolved));
      }
    }
    entries.set(specifier, { values, names });
  });
  return entries;
}

/** The names a source module of this repository exports, read with the compiler. */
export function sourceExports(file: string): string[] {
  const program = ts.createProgram([file], { noEmit: true, types: [] });
  const source = program.getSourceFile(file);
  const symbol = source && program.getTypeChecker().getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${file} is not a module`);
  return program
    .getTypeChecker()
    .getExportsOfModule(symbol)
    .map((s) => s.name);
}
