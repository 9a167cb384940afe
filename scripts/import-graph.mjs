// Checks the shape of src/'s import graph, run by `npm test`:
// - no import circle (a module that, through others, imports itself: its exports may be
//   undefined while the circle loads, and the layers stop meaning anything);
// - no door imports another door, and the code the doors share imports none. A door is the
//   code that translates one server shape (node:http, Web-standard, Koa, Fastify) into the
//   shared exchange; what doors share lives below them, so a change for one shape cannot
//   reach another through an import. Only the modules that assemble the public API import
//   several doors.
//
// `node scripts/import-graph.mjs` prints what it finds and exits 1 on any finding; `--graph`
// prints every edge. Only relative imports of src/ count (type-only ones too: a circle of
// types is a circle of meaning, even if the build erases it).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const src = join(root, 'src');

/**
 * The doors: each translates one server shape into what the rest shares. Paths are under src/
 * (a folder ends in `/`). `buildsOn`: the doors a framework running on another door's server
 * may use (Koa and Fastify serve on node:http, so they read its requests as node:http does).
 */
const DOORS = {
  'node:http': { paths: ['logger/node-exchange.ts', 'parsers/read-body.ts'], buildsOn: [] },
  web: { paths: ['logger/fetch.ts', 'parsers/web-body.ts'], buildsOn: [] },
  koa: { paths: ['koa/'], buildsOn: ['node:http'] },
  fastify: { paths: ['fastify/'], buildsOn: ['node:http'] },
};
/**
 * The modules that assemble the doors into what users call, and may import any: the package's
 * entry, the public `logger` (its `fetchLogger` beside the middleware) and a parser's faces
 * (the middleware and `read`, which takes a Node request or a Web Request).
 */
const ASSEMBLIES = new Set(['index.ts', 'logger/index.ts', 'parsers/define.ts']);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]/g;
const BARE_IMPORT = /(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;

/** The src-relative paths a module imports. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = new Set();
  for (const pattern of [IMPORT, BARE_IMPORT]) {
    for (const match of text.matchAll(pattern)) {
      const target = resolve(dirname(file), match[1].replace(/\.js$/, '.ts'));
      found.add(relative(src, target));
    }
  }
  return [...found];
}

const graph = new Map();
for (const file of sources(src)) graph.set(relative(src, file), importsOf(file));

/** The circles, each once, as the list of modules around it. */
function circles() {
  const found = [];
  const state = new Map(); // undefined: unseen, 1: on the path, 2: done
  const path = [];
  const visit = (node) => {
    state.set(node, 1);
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) found.push(path.slice(path.indexOf(next)).concat(next));
      else if (state.get(next) === undefined && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 2);
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return found;
}

const doorOf = new Map();
for (const [door, { paths }] of Object.entries(DOORS)) {
  for (const module of graph.keys()) {
    if (paths.some((p) => (p.endsWith('/') ? module.startsWith(p) : module === p))) {
      doorOf.set(module, door);
    }
  }
}

/** Imports of a door by another door (other than one it builds on) or by the shared code. */
function doorCrossings() {
  const found = [];
  for (const [module, targets] of graph) {
    if (ASSEMBLIES.has(module)) continue;
    const from = doorOf.get(module);
    for (const target of targets) {
      const door = doorOf.get(target);
      if (door === undefined || door === from) continue;
      if (from !== undefined && DOORS[from].buildsOn.includes(door)) continue;
      found.push(`${module} (${from ?? 'shared'}) imports ${target} (door ${door})`);
    }
  }
  return found;
}

if (process.argv.includes('--graph')) {
  for (const [module, targets] of [...graph].sort())
    console.log(`${module} -> ${targets.join(', ')}`);
}
const problems = [
  ...circles().map((circle) => `import circle: ${circle.join(' -> ')}`),
  ...doorCrossings(),
];
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`import graph: ${graph.size} modules, no circle, no door importing another`);
