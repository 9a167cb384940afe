// Reads a V8 .cpuprofile and ranks functions by self time and by inclusive time, in ns per
// request, so that a profile speaks in the bench's unit.
import { readFileSync } from 'node:fs';

function label(frame) {
  const file = frame.url
    ? frame.url
        .replace(/^.*\/dist\/index\.cjs$/, 'dist/index.cjs')
        .replace(/^.*\/node_modules\//, '')
    : '';
  const where = file ? ` ${file.replace(/^file:\/\//, '')}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** { total, self: [[label, ns]], inclusive: [[label, ns]] } with ns per request. */
export function analyse(file, requests, isOurs) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    total += us;
    const node = nodes.get(id);
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + us);
    // Charge every distinct function on the stack once (recursion counted once).
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (!isOurs(frame)) continue;
      const k = label(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const perRequest = (m) =>
    [...m].map(([k, us]) => [k, (us * 1000) / requests]).sort((a, b) => b[1] - a[1]);
  return {
    totalNs: (total * 1000) / requests,
    self: perRequest(self),
    inclusive: perRequest(inclusive),
  };
}
