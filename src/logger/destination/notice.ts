// The line a destination writes in the log where lines are missing, so that whoever reads the
// log knows what is not there: how many lines, between which times, and why. It takes the
// shape of the lines around it, so a collector parsing one JSON object per line parses it
// too: the `ecs` preset's first fields when the line before it has them, the `json` preset's
// (`time`, `level`, `msg`) for any other JSON line, and plain text otherwise.

/** A run of dropped lines not yet reported in the log. */
export interface Gap {
  lines: number;
  /** Milliseconds since the epoch of the first and last line dropped. */
  from: number;
  to: number;
  /** Why: `maxBytes`, or the code of the failed write (`ENOSPC`, `EPIPE`...). */
  reasons: Set<string>;
}

export function newGap(reason: string, now: number): Gap {
  return { lines: 0, from: now, to: now, reasons: new Set([reason]) };
}

/** Adds `other` to `gap` (or returns `other` when there is none yet). */
export function mergeGaps(gap: Gap | undefined, other: Gap): Gap {
  if (gap === undefined) return other;
  gap.lines += other.lines;
  gap.from = Math.min(gap.from, other.from);
  gap.to = Math.max(gap.to, other.to);
  for (const reason of other.reasons) gap.reasons.add(reason);
  return gap;
}

/** The line's shape, read from a line the logger wrote (its first characters). */
export type Shape = 'text' | 'json' | 'ecs';

export function shapeOf(line: string): Shape {
  if (line.charCodeAt(0) !== 0x7b /* { */) return 'text';
  return line.startsWith('{"@timestamp"') ? 'ecs' : 'json';
}

export function noticeLine(gap: Gap, shape: Shape): string {
  const from = new Date(gap.from).toISOString();
  const to = new Date(gap.to).toISOString();
  const why = [...gap.reasons].join(', ');
  const message = `httpware: ${gap.lines} log lines dropped between ${from} and ${to} (${why})`;
  const dropped = { lines: gap.lines, from, to, reasons: [...gap.reasons] };
  if (shape === 'text') return `${message}\n`;
  const now = new Date().toISOString();
  const record =
    shape === 'ecs'
      ? { '@timestamp': now, 'log.level': 'warn', message, 'httpware.dropped': dropped }
      : { time: now, level: 'warn', msg: message, dropped };
  return `${JSON.stringify(record)}\n`;
}
