// The colours `dev` gives a status (morgan's), shared by `dev` and `:status[color]` in any
// format string, and the colour decision both follow.
import type { LogResponse } from '../types.js';
import { statusCodeOf } from './timing.js';

/** SGR colour of a status by class: 0 (none) for 1xx or when there is no status. */
export function statusColour(res: LogResponse): number {
  const status = statusCodeOf(res) ?? 0;
  if (status >= 500) return 31; // red
  if (status >= 400) return 33; // yellow
  if (status >= 300) return 36; // cyan
  if (status >= 200) return 32; // green
  return 0; // informational, or no response: no colour
}

/** Whether lines may colour: https://no-color.org, read when a logger is created. */
export function colourAllowed(): boolean {
  return !process.env.NO_COLOR;
}

/** `:status[color]`'s text as `dev` writes its status: its colour, the status or `-`, a reset. */
export function colouredStatus(res: LogResponse): string {
  const code = statusCodeOf(res);
  return `\x1b[${statusColour(res)}m${code ?? '-'}\x1b[0m`;
}
