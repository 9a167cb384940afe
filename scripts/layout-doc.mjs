// Checks that docs/development.md's source tree is the tree of src/, run by `npm run shape`:
// every .ts file of src/ is listed there, in its folder, and every file listed there exists.
// The tree is the ```text block under "## The source tree": a folder is a line ending in `/`,
// a file a line whose first word ends in `.ts`, each indented two spaces under its folder.
//
// `node scripts/layout-doc.mjs` prints each difference and exits 1 if there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield relative(root, path);
  }
}

/** The paths the tree block lists, folders joined to their files. */
function listed(doc) {
  const section = doc.split('\n## The source tree\n')[1];
  const block = section?.match(/```text\n([\s\S]*?)```/)?.[1];
  if (block === undefined) throw new Error('docs/development.md has no source tree block');
  const folders = [];
  const paths = [];
  for (const line of block.split('\n')) {
    const name = line.trim().split(/\s+/)[0];
    if (name === '' || name === undefined) continue;
    const depth = (line.length - line.trimStart().length) / 2;
    folders.length = depth;
    if (name.endsWith('/')) folders.push(name.slice(0, -1));
    else if (name.endsWith('.ts')) paths.push([...folders, name].join('/'));
  }
  return paths;
}

const inTree = new Set(listed(readFileSync(join(root, 'docs/development.md'), 'utf8')));
const inSrc = new Set(sources(join(root, 'src')));
const problems = [
  ...[...inSrc].filter((path) => !inTree.has(path)).map((path) => `not in the tree: ${path}`),
  ...[...inTree].filter((path) => !inSrc.has(path)).map((path) => `listed, not in src/: ${path}`),
];
for (const problem of problems) console.log(problem);
if (problems.length > 0) {
  console.log("docs/development.md's source tree and src/ differ");
  process.exit(1);
}
console.log(`docs/development.md's source tree lists the ${inSrc.size} files of src/`);
