// Small, dependency-free statistics for the reports.

export function quantile(values, q) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export const median = (values) => quantile(values, 0.5);

export function geomean(values) {
  const ok = values.filter((v) => Number.isFinite(v) && v > 0);
  if (ok.length === 0) return Number.NaN;
  return Math.exp(ok.reduce((sum, v) => sum + Math.log(v), 0) / ok.length);
}

/**
 * The figure of a ratio measured per cycle over several rounds of fresh processes: the median
 * of the per-round medians (a process that drew a bad JIT or a noisy neighbour counts once),
 * with the quartiles of all cycles and the range of the round medians as the spread.
 */
export function summarize(perRound) {
  const roundMedians = perRound.map(median).filter(Number.isFinite);
  const all = perRound.flat().filter(Number.isFinite);
  return {
    value: median(roundMedians),
    p25: quantile(all, 0.25),
    p75: quantile(all, 0.75),
    roundMin: Math.min(...roundMedians),
    roundMax: Math.max(...roundMedians),
    cycles: all.length,
  };
}
