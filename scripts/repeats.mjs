// Checks that src/ does not say the same thing twice, run by `npm test`: six or more
// meaningful lines that stand, the same to the letter (spacing aside), in two places of src/
// are a repeat to fold into one function, one table or one module. Comments, imports, blank
// lines and lines of punctuation only (`});`) do not count: they are alike by nature.
//
// `node scripts/repeats.mjs` prints each repeat as `a.ts:10-17 ~ b.ts:40-47` and exits 1 if
// there is one; `--lines N` changes the six.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const src = join(root, 'src');
const at = process.argv.indexOf('--lines');
const WINDOW = at === -1 ? 6 : Number(process.argv[at + 1]);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const PUNCTUATION_ONLY = /^[\s{}()[\];,.:?]*$/;
const COMMENT = /^(?:\/\/|\/\*|\*)/;
const IMPORT = /^(?:import|export)\b.*\bfrom\b|^import ['"]|^\} from ['"]/;

/** The lines that carry meaning, with their line numbers (1-based). */
function meaningful(text) {
  const lines = [];
  let inImport = false;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (inImport) {
      inImport = !/\bfrom ['"]/.test(line);
      continue;
    }
    if (/^(?:import|export) (?:type )?\{$/.test(line)) {
      inImport = true; // a multi-line import or re-export: up to its `from`
      continue;
    }
    if (line === '' || COMMENT.test(line) || IMPORT.test(line) || PUNCTUATION_ONLY.test(line)) {
      continue;
    }
    lines.push({ line, number: index + 1 });
  }
  return lines;
}

/** Every window of WINDOW meaningful lines, by its text. */
const windows = new Map();
for (const file of sources(src)) {
  const name = relative(root, file);
  const lines = meaningful(readFileSync(file, 'utf8'));
  for (let i = 0; i + WINDOW <= lines.length; i++) {
    const key = lines
      .slice(i, i + WINDOW)
      .map((entry) => entry.line)
      .join('\n');
    const place = { name, from: lines[i].number, to: lines[i + WINDOW - 1].number };
    const list = windows.get(key);
    if (list === undefined) windows.set(key, [place]);
    else list.push(place);
  }
}

/** Pairs of places, overlapping windows of one repeat merged into one range. */
const repeats = new Map();
for (const places of windows.values()) {
  if (places.length < 2) continue;
  const [first, ...others] = places;
  for (const other of others) {
    if (other.name === first.name && other.from <= first.to) continue; // one run of itself
    const id = `${first.name}~${other.name}`;
    const known = repeats
      .get(id)
      ?.find((r) => r.a.to >= first.from - 1 && r.b.to >= other.from - 1);
    if (known) {
      known.a.to = Math.max(known.a.to, first.to);
      known.b.to = Math.max(known.b.to, other.to);
    } else {
      const list = repeats.get(id) ?? [];
      list.push({ a: { ...first }, b: { ...other } });
      repeats.set(id, list);
    }
  }
}

const found = [...repeats.values()].flat();
for (const { a, b } of found)
  console.error(`${a.name}:${a.from}-${a.to} ~ ${b.name}:${b.from}-${b.to}`);
if (found.length > 0) {
  console.error(`${found.length} repeat(s) of ${WINDOW} or more lines in src/: fold them into one`);
  process.exit(1);
}
console.log(`repeats: none of ${WINDOW} or more lines in src/`);
