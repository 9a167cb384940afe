// Plain-text tables and target lines for the terminal and the README.

export const fmt = {
  ns: (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-'),
  us: (v) => (Number.isFinite(v) ? (v / 1000).toFixed(1) : '-'),
  rps: (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-'),
  x: (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-'),
  mb: (v) => (Number.isFinite(v) ? (v / 1048576).toFixed(0) : '-'),
  /** p25-p75 of the per-cycle ratios, and the range of the round medians when there are several. */
  spread: (s) => {
    if (s?.pooled && s.roundMax > s.roundMin) {
      return `rounds ${s.roundMin.toFixed(2)}-${s.roundMax.toFixed(2)}`;
    }
    if (!s || !Number.isFinite(s.p25)) return '-';
    const q = `${s.p25.toFixed(2)}-${s.p75.toFixed(2)}`;
    return s.roundMax > s.roundMin
      ? `${q} (rounds ${s.roundMin.toFixed(2)}-${s.roundMax.toFixed(2)})`
      : q;
  },
};

export function table(columns, rows, leftColumns = 2) {
  const cells = [columns, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  // Names left-aligned, figures right-aligned.
  const line = (r) =>
    r.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** holds: true, false or null (not measured). */
export function targetLine(t) {
  const mark = t.holds === null ? 'n/a ' : t.holds ? 'PASS' : 'FAIL';
  const value = Number.isFinite(t.value) ? t.value.toFixed(3) : '-';
  const by = t.holds === false && t.by ? ` (${t.by})` : '';
  return `  [${mark}] ${t.text}: ${value} (target ${t.limitText})${by}`;
}

/** A target's verdict and, when it fails, by how much in words. */
export function verdict(value, op, limit) {
  if (!Number.isFinite(value)) return { holds: null, by: '' };
  const holds = op === '<=' ? value <= limit : op === '<' ? value < limit : value >= limit;
  const pct = ((value / limit - 1) * 100).toFixed(0);
  return { holds, by: holds ? '' : `off by ${pct > 0 ? '+' : ''}${pct}% of the limit` };
}
