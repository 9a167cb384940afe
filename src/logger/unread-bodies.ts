// The bodies a fetchLogger watches (fetch.ts) and hands on that nothing has begun to read, so
// that the line of one never read still comes: a Hono middleware outside the logger's that
// replaces `c.res` drops the watched Response unread, and so does anything that never sends a
// Response it was given. A runtime that sends a body reads its first chunk as soon as it has
// the Response, so a body still unread a second later will not be sent: its line is written
// then, as for a body cancelled.
//
// One timer per logger, not one per request: it sweeps the unread bodies in two generations
// every `SWEEP_MS`, and a body still unread at the second sweep after it came is given up, so
// its line comes between one and two sweeps after its Response was handed on. A request costs
// a `Set` add and delete (about 0.1 µs), where a timer of its own cost 0.1 to 0.5 µs on Node
// and 1.5 to 5 µs on Deno. The timer is unref'd: a process with nothing else to do ends
// without waiting for those lines.
//
// On Cloudflare Workers a timer belongs to the request that set it and dies when that request
// ends: each watched body there has a timer of its own, kept alive with `ctx.waitUntil` until
// its line (fetch.ts).

import { backgroundTimer } from '../background-timer.js';

/** The interval of the sweeps: an unread body's line comes 1 to 2 of them after its Response. */
export const SWEEP_MS = 1000;

/** Workers' own timer for one body: the latest the sweeps would give it. */
export const UNREAD_LIMIT_MS = 2 * SWEEP_MS;

/** A watched body, as the sweeps see it. */
export interface UnreadBody {
  /** Nothing read the body in time: its line is written without it. */
  neverRead(): void;
}

/** One logger's unread bodies, in two generations, and the timer that sweeps them. */
export class UnreadBodies {
  /** Handed on since the last sweep. */
  private recent: Set<UnreadBody>;
  /** Unread at the last sweep: given up at the next one. */
  private older: Set<UnreadBody>;
  private armed: boolean;

  constructor() {
    this.recent = new Set();
    this.older = new Set();
    this.armed = false;
  }

  add(body: UnreadBody): void {
    this.recent.add(body);
    if (!this.armed) this.arm();
  }

  /** The body began to be read (or its line was written): it is no longer waited for. */
  delete(body: UnreadBody): void {
    if (!this.recent.delete(body)) this.older.delete(body);
  }

  private arm(): void {
    this.armed = true;
    backgroundTimer(() => this.sweep(), SWEEP_MS);
  }

  private sweep(): void {
    const expired = this.older;
    this.older = this.recent;
    this.recent = new Set();
    this.armed = false;
    if (this.older.size > 0) this.arm();
    for (const body of expired) body.neverRead();
  }
}
