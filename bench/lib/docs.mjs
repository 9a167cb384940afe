// The figures of one run, written where readers look: an SVG chart of the ratios
// (docs/benchmarks.svg), the tables (docs/benchmarks.md) and the headline figures (README.md),
// each between marker comments, all from the run's one-line JSON summary. Nothing here knows
// the groups: any group summary is walked for "variant maps", objects whose values are
// variants carrying a ratio to the group's floor (`xFloor`: time per request; `xCpu`: server
// CPU per request, for loopback groups), so a group, case or variant added to bench/lib/groups.mjs
// shows up without a change here. No dependencies: the SVG is a string.
import { readFileSync, writeFileSync } from 'node:fs';

const RATIO_KEYS = ['xFloor', 'xCpu'];
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const ratioOf = (v) => RATIO_KEYS.map((k) => v?.[k]).find((x) => Number.isFinite(x));
const isVariantMap = (o) => Object.values(o).some((v) => isObject(v) && ratioOf(v) !== undefined);

/** [{ group, title, cases: [{ name, variants: [{ name, ratio, fields }] }] }], in summary order. */
export function chartData(summary) {
  return Object.entries(summary.groups ?? {}).map(([group, s]) => {
    const cases = [];
    const walk = (o, name) => {
      if (isVariantMap(o)) {
        const variants = Object.entries(o)
          .filter(([, v]) => isObject(v) && ratioOf(v) !== undefined)
          .map(([variant, v]) => ({ name: variant, ratio: ratioOf(v), fields: v }));
        cases.push({ name, variants });
      } else {
        for (const [k, v] of Object.entries(o)) if (isObject(v)) walk(v, k);
      }
    };
    walk(s, group);
    // The chart and the headline use the title's first clause ("Logger, in process").
    const title = String(s.title ?? group);
    // The cases a group's own geometric mean is taken over (its targets'), if it names them.
    const meanCases = Array.isArray(s.meanCases) ? s.meanCases : null;
    return { group, title, short: title.split(':')[0], cases, meanCases };
  });
}

const escapeXml = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );
const x = (v) => `${v.toFixed(2)}×`;

/** The implementation a variant name stands for: `httpware:json` and `httpware` are httpware. */
const implOf = (name) => name.split(':')[0];

/** One colour per variant name: httpware stands out, floors are grey, the rest take turns. */
function palette(names) {
  const others = ['#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#ec4899', '#14b8a6', '#a16207'];
  let next = 0;
  const colour = (n) => {
    if (implOf(n) === 'httpware') return '#2563eb';
    if (n.startsWith('httpware')) return '#93c5fd';
    if (/^(floor|bare)$/.test(implOf(n))) return '#9ca3af';
    return others[next++ % others.length];
  };
  return new Map(names.map((n) => [n, colour(n)]));
}

/** A horizontal bar per variant and case, grouped by benchmark group, with a line at 1 (floor). */
export function renderChart(summary) {
  const data = chartData(summary);
  const names = [
    ...new Set(data.flatMap((g) => g.cases.flatMap((c) => c.variants.map((v) => v.name)))),
  ];
  const colour = palette(names);
  const max = Math.max(
    1.5,
    ...data.flatMap((g) => g.cases.flatMap((c) => c.variants.map((v) => v.ratio))),
  );
  const width = 820;
  const left = 200;
  const scale = (width - left - 70) / max;
  const parts = [];
  let y = 44;
  names.forEach((n, i) => {
    const lx = 10 + (i % 6) * 135;
    const ly = 10 + Math.floor(i / 6) * 16;
    parts.push(`<rect x="${lx}" y="${ly}" width="10" height="10" fill="${colour.get(n)}"/>`);
    parts.push(`<text x="${lx + 14}" y="${ly + 9}">${escapeXml(n)}</text>`);
  });
  y += Math.floor((names.length - 1) / 6) * 16;
  for (const g of data) {
    parts.push(`<text x="10" y="${y + 12}" class="group">${escapeXml(g.short)}</text>`);
    y += 20;
    for (const c of g.cases) {
      parts.push(
        `<text x="${left - 8}" y="${y + 10}" text-anchor="end">${escapeXml(c.name)}</text>`,
      );
      for (const v of c.variants) {
        const w = Math.max(1, v.ratio * scale);
        parts.push(
          `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="10" fill="${colour.get(v.name)}"><title>${escapeXml(`${c.name} ${v.name} ${x(v.ratio)}`)}</title></rect>`,
        );
        parts.push(
          `<text x="${(left + w + 4).toFixed(1)}" y="${y + 9}" class="value">${x(v.ratio)}</text>`,
        );
        y += 12;
      }
      y += 8;
    }
  }
  const floorX = (left + scale).toFixed(1);
  parts.push(`<line x1="${floorX}" y1="40" x2="${floorX}" y2="${y}" class="floor"/>`);
  parts.push(
    `<text x="${floorX}" y="${y + 12}" text-anchor="middle" class="value">1 = floor</text>`,
  );
  const height = y + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>httpware benchmarks: time (in process) or CPU (loopback) per request, × the floor; lower is better</title>`,
    '<style>.group{font-weight:bold;font-size:12px}.value{fill:#374151;font-size:10px}.floor{stroke:#111827;stroke-dasharray:3 3}</style>',
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

const FIELD_NAMES = {
  xFloor: '× floor',
  xCpu: 'CPU × base',
  xRps: 'req/s × base',
  rps: 'req/s',
  cpuNsPerReq: 'CPU ns/req',
  ns: 'ns/req',
  overheadNs: 'overhead ns',
  peakRss: 'peak RSS MB',
  overhead: 'overhead',
  overheadXMinimal: 'overhead × minimal',
  overheadXMorgan: 'overhead × morgan',
};
function cell(key, value) {
  if (!Number.isFinite(value)) return '-';
  if (key === 'peakRss') return (value / 2 ** 20).toFixed(0);
  if (/^x|X[A-Z]/.test(key)) return x(value);
  return Math.round(value).toLocaleString('en-US');
}

/** Folds `text` into lines of at most `width` characters at spaces, for terminal readers. */
function wrap(text, width = 96, indent = '') {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** A table with its columns padded to their widest cell, as the formatter (Biome) writes it. */
function markdownTable(header, rows) {
  const widths = header.map((_, i) =>
    Math.max(3, ...[header, ...rows].map((cells) => String(cells[i] ?? '').length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Cases with several variants: one row per case, one column per variant (its ratio). */
function caseTable(g) {
  const variants = [...new Set(g.cases.flatMap((c) => c.variants.map((v) => v.name)))];
  const rows = g.cases.map((c) => [
    `\`${c.name}\``,
    ...variants.map((n) => {
      const v = c.variants.find((w) => w.name === n);
      return v ? x(v.ratio) : '-';
    }),
  ]);
  return markdownTable(['case', ...variants], rows);
}

/** One case (a loopback group): one row per variant, one column per figure it has. */
function variantTable(c) {
  const keys = [...new Set(c.variants.flatMap((v) => Object.keys(v.fields)))].filter((k) =>
    c.variants.some((v) => Number.isFinite(v.fields[k])),
  );
  const rows = c.variants.map((v) => [v.name, ...keys.map((k) => cell(k, v.fields[k]))]);
  const header = (k) => FIELD_NAMES[k] ?? k.replace(/^xRps_/, 'req/s × ');
  return markdownTable(['variant', ...keys.map(header)], rows);
}

/** The tables of docs/benchmarks.md: the run, the chart, one table per group, the targets. */
export function renderTables(summary) {
  const m = summary.machine ?? {};
  const out = [
    wrap(
      `Run of ${summary.date?.slice(0, 10) ?? '?'} on ${m.cpus} × ${m.cpu}, Node ${m.node}, ` +
        `commit ${summary.commit ?? '?'}${summary.quick ? ' (--quick: not figures to quote)' : ''}. ` +
        'Ratios are time per request (in process) or server CPU per request (loopback) divided ' +
        "by the group's floor, in one run: lower is better.",
    ),
    '',
    '![Benchmark ratios, lower is better](benchmarks.svg)',
  ];
  for (const g of chartData(summary)) {
    const detail = g.title.slice(g.short.length + 1).trim();
    out.push('', `### ${g.short}`, '', ...(detail ? [wrap(detail), ''] : []));
    out.push(g.cases.length === 1 ? variantTable(g.cases[0]) : caseTable(g));
    const scalars = Object.entries(summary.groups[g.group]).filter(([, v]) => Number.isFinite(v));
    if (scalars.length) out.push('', wrap(scalars.map(([k, v]) => `\`${k}\`: ${v}`).join('; ')));
  }
  const targets = Object.entries(summary.targets ?? {});
  if (targets.length) {
    out.push('', '### Targets', '');
    const rows = targets.map(([id, t]) => [
      `\`${id}\``,
      Number.isFinite(t.value) ? t.value.toFixed(3) : '-',
      t.limit ?? '',
      t.holds === null ? 'not measured' : t.holds ? 'met' : 'not met',
    ]);
    out.push(markdownTable(['target', 'value', 'limit', 'verdict'], rows));
  }
  return out.join('\n');
}

const geomean = (xs) => Math.exp(xs.reduce((a, v) => a + Math.log(v), 0) / xs.length);

/**
 * The README's lines: per group, each variant's geometric mean over the group's cases; a
 * variant measured on some cases only (a side measurement) is left to the tables.
 */
export function renderHeadline(summary) {
  const lines = chartData(summary).map((g) => {
    // A group that names the cases of its own geometric mean is summed up over those (the
    // parser groups leave out raw 1 MB, whose time is mostly the garbage collector's).
    const cases = g.meanCases ? g.cases.filter((c) => g.meanCases.includes(c.name)) : g.cases;
    const names = [...new Set(cases.flatMap((c) => c.variants.map((v) => v.name)))].filter((n) =>
      cases.every((c) => c.variants.some((v) => v.name === n)),
    );
    const figures = names.map((n) => {
      const ratios = cases.flatMap((c) =>
        c.variants.filter((v) => v.name === n).map((v) => v.ratio),
      );
      const text = `${n} ${x(geomean(ratios))}`;
      return implOf(n) === 'httpware' ? `**${text}**` : text;
    });
    const over =
      cases.length > 1 ? ` (geometric mean of ${cases.map((c) => c.name).join(', ')})` : '';
    return wrap(`- ${g.short}${over}: ${figures.join(', ')}`, 96, '  ');
  });
  return [
    ...lines,
    '',
    '![Benchmark ratios, lower is better](docs/benchmarks.svg)',
    '',
    wrap(
      "Ratios to the floor from the project's bench (`npm run bench`), lower is better; run of " +
        `${summary.date?.slice(0, 10) ?? '?'} on Node ${summary.machine?.node ?? '?'}, commit ` +
        `${summary.commit ?? '?'}. Tables and method: [docs/benchmarks.md](docs/benchmarks.md); ` +
        'the parsers on the judging bench, and where the two benches differ: ' +
        '[the judging bench](docs/benchmarks.md#the-judging-bench).',
    ),
  ].join('\n');
}

/** `text` with what lies between `<!-- bench:name:start -->` and its end marker replaced. */
export function replaceBetween(text, name, content) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`markers ${start} ... ${end} not found`);
  return `${text.slice(0, a + start.length)}\n${content}\n${text.slice(b)}`;
}

/** Writes the chart, the tables and the headline figures of `summary` under `root`. */
export function writeDocs(summary, root) {
  writeFileSync(new URL('docs/benchmarks.svg', root), renderChart(summary));
  for (const [file, name, render] of [
    ['docs/benchmarks.md', 'tables', renderTables],
    ['README.md', 'headline', renderHeadline],
  ]) {
    const url = new URL(file, root);
    writeFileSync(url, replaceBetween(readFileSync(url, 'utf8'), name, render(summary)));
  }
}
