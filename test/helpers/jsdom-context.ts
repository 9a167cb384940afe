// CommonJS modules loaded as Jest 26 loads them in its default environment, jsdom: each file is
// compiled in one `node:vm` context whose globals are the environment's, wrapped in a function
// of `module, exports, require, __dirname, __filename, global, jest`; Node's own modules are
// Node's, named without `node:`; a package is found by its `main` (Jest 26 reads no `exports`).
//
// The globals are those a test file sees under Jest 26.6.3 with jest-environment-jsdom 26.6.2
// (jsdom 16.7.0), measured on Node 20 (typeof of each of Node's globals in a test file): of
// Node's globals beyond ECMAScript's own, only the ones below, given here as Node's values.
// Missing among others: TextEncoder, TextDecoder, structuredClone, crypto, fetch, Request,
// Response, the Web streams (ReadableStream...), MessageChannel, BroadcastChannel, and `global`
// (a parameter of the module wrapper instead). jsdom adds its window's names, of which
// `window`, `self`, `document`, `navigator` and `location` are given as plain stand-ins.
import { readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import vm from 'node:vm';

/** Node's globals that Jest 26's jsdom environment has too. */
export const JSDOM_NODE_GLOBALS: readonly string[] = [
  'AbortController',
  'AbortSignal',
  'Blob',
  'Buffer',
  'CustomEvent',
  'DOMException',
  'Event',
  'EventTarget',
  'File',
  'FormData',
  'Headers',
  'MessageEvent',
  'Performance',
  'URL',
  'URLSearchParams',
  'atob',
  'btoa',
  'clearImmediate',
  'clearInterval',
  'clearTimeout',
  'performance',
  'process',
  'queueMicrotask',
  'setImmediate',
  'setInterval',
  'setTimeout',
];

/** jsdom's own window names that libraries probe, as stand-ins. */
const WINDOW_NAMES: readonly string[] = ['window', 'self', 'document', 'navigator', 'location'];

const nodeRequire = createRequire(import.meta.url);

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function asFile(path: string): string | undefined {
  return ['', '.js', '.json'].map((ext) => path + ext).find(isFile);
}

/** A directory as a module: its package.json's `main`, else its index. */
function asDirectory(dir: string): string | undefined {
  const manifest = join(dir, 'package.json');
  if (isFile(manifest)) {
    const { main } = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string };
    const found = main && (asFile(join(dir, main)) ?? asFile(join(dir, main, 'index')));
    if (found) return found;
  }
  return asFile(join(dir, 'index'));
}

/** Node's CommonJS resolution before `exports` (what Jest 26's resolver does). */
function resolveFrom(specifier: string, from: string): string {
  const candidates = /^\.{0,2}\//.test(specifier)
    ? [resolve(from, specifier)]
    : from
        .split('/')
        .map((_, i, parts) => join('/', ...parts.slice(0, parts.length - i), 'node_modules'))
        .map((dir) => join(dir, specifier));
  for (const path of candidates) {
    const found = asFile(path) ?? asDirectory(path);
    if (found) return found;
  }
  throw new Error(`Cannot find module '${specifier}' from '${from}'`);
}

export interface JsdomLikeContext {
  /** `require` as a test file in `dir` has it. */
  require(specifier: string, dir: string): unknown;
  /** The environment's globals that code run in the context has read, in order. */
  readonly touched: string[];
  /** Evaluates `code` in the context (what a test file would see). */
  evaluate(code: string): unknown;
}

/** A fresh context with the jsdom environment's globals, every read of one recorded. */
export function jsdomLikeContext(): JsdomLikeContext {
  const touched: string[] = [];
  const sandbox: Record<string, unknown> = {};
  const host = globalThis as Record<string, unknown>;
  const stand = (name: string) => ({ name, toString: () => `[object ${name}]` });
  for (const name of [...JSDOM_NODE_GLOBALS, ...WINDOW_NAMES]) {
    const value = name in host ? host[name] : stand(name);
    Object.defineProperty(sandbox, name, {
      get() {
        touched.push(name);
        return value;
      },
      configurable: true,
      enumerable: false,
    });
  }
  const context = vm.createContext(sandbox);
  const environmentGlobal = vm.runInContext('globalThis', context) as object;
  const modules = new Map<string, { exports: unknown }>();

  const load = (filename: string): unknown => {
    const cached = modules.get(filename);
    if (cached) return cached.exports;
    const module = { exports: {} as unknown };
    modules.set(filename, module);
    if (filename.endsWith('.json')) {
      module.exports = JSON.parse(readFileSync(filename, 'utf8'));
      return module.exports;
    }
    const source = readFileSync(filename, 'utf8');
    const wrapper = `({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,global,jest){${source}\n}});`;
    const compiled = new vm.Script(wrapper, { filename }).runInContext(context) as Record<
      string,
      (...args: unknown[]) => void
    >;
    const dir = dirname(filename);
    const requireHere = (specifier: string) => requireFrom(specifier, dir);
    compiled['Object.<anonymous>']?.call(
      module.exports,
      module,
      module.exports,
      requireHere,
      dir,
      filename,
      environmentGlobal,
      {},
    );
    return module.exports;
  };

  const requireFrom = (specifier: string, dir: string): unknown => {
    // By its bare name only: Jest 26 knows no `node:` prefix (`Cannot find module 'node:zlib'`).
    if (builtinModules.includes(specifier)) return nodeRequire(specifier);
    return load(resolveFrom(specifier, dir));
  };

  return {
    require: requireFrom,
    touched,
    evaluate: (code) => vm.runInContext(code, context),
  };
}
