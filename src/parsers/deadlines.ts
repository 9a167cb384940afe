// The time bounds on reading bodies (`bodyTimeout`), kept without a timer per read. A Web read
// is bounded by default (60 s), so every read would set and clear a timer: 0.15 µs on Bun,
// 0.3 µs on Node, and 1.3 to 2.2 µs on Deno (whose timers are calls into the runtime), a
// third of what httpware adds to reading a 100-byte body there. Instead the reads bounded by
// one timeout are kept in a `Set` in the order they started, which is the order of their
// deadlines, and one timer waits for the first deadline: a read costs an add and a delete
// (about 0.1 µs), and the timer is set again only when it fires. A read that ends is deleted;
// the timer finds the next.
//
// The timer keeps the process alive only while reads are watched, as a timer per read would
// (a `ref` or `unref` costs about 0.01 µs). On Cloudflare's workerd a timer belongs to the
// request that set it and dies when that request ends, so there each read keeps a timer of
// its own.

import { keepAlive } from '../background-timer.js';
import { onWorkerd } from '../runtime.js';

/** A read bounded in time, as the bound sees it. */
export interface BoundedRead {
  /** The clock reading (performance.now) past which the read has taken too long. */
  deadline: number;
  /** The read took too long (it is no longer watched). */
  expire(): void;
}

/** How a read's time bound is kept: `watch` when it starts, `unwatch` when it ends. */
export interface TimeBound {
  watch(read: BoundedRead): void;
  unwatch(read: BoundedRead): void;
}

/** The reads bounded by one timeout, and the one timer waiting for the earliest deadline. */
class SharedBound implements TimeBound {
  private readonly reads = new Set<BoundedRead>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The deadline the timer is set for. */
  private armedFor = 0;

  constructor(private readonly timeout: number) {}

  watch(read: BoundedRead): void {
    read.deadline = performance.now() + this.timeout;
    this.reads.add(read);
    if (this.timer === null) this.arm(read.deadline, this.timeout);
    else if (this.reads.size === 1) keepAlive(this.timer, true);
  }

  unwatch(read: BoundedRead): void {
    if (this.reads.delete(read) && this.reads.size === 0 && this.timer !== null) {
      keepAlive(this.timer, false);
    }
  }

  /** Sets the timer for `deadline` (replacing one a read watched from an `expire` set). */
  private arm(deadline: number, delay: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(this.fire, delay);
  }

  /**
   * Expires every read whose deadline has come, then waits for the next one. The timer firing
   * means its deadline has come, whatever the clock reads (a timer may fire a fraction of a
   * millisecond before `performance.now` says so, and a test's mocked timers move no clock).
   */
  private readonly fire = (): void => {
    this.timer = null;
    const now = Math.max(performance.now(), this.armedFor);
    for (const read of this.reads) {
      if (read.deadline > now) {
        this.arm(read.deadline, read.deadline - now);
        return;
      }
      this.reads.delete(read);
      read.expire();
    }
  };
}

/** workerd: each read with a timer of its own (see the header). */
class OwnTimers implements TimeBound {
  private readonly timers = new WeakMap<BoundedRead, ReturnType<typeof setTimeout>>();

  constructor(private readonly timeout: number) {}

  watch(read: BoundedRead): void {
    read.deadline = performance.now() + this.timeout;
    this.timers.set(
      read,
      setTimeout(() => read.expire(), this.timeout),
    );
  }

  unwatch(read: BoundedRead): void {
    clearTimeout(this.timers.get(read));
  }
}

const bounds = new Map<number, TimeBound>();

/** The bound for reads that may take `timeout` ms (> 0), shared by every read with it. */
export function timeBound(timeout: number): TimeBound {
  let bound = bounds.get(timeout);
  if (bound === undefined) {
    bound = onWorkerd() ? new OwnTimers(timeout) : new SharedBound(timeout);
    bounds.set(timeout, bound);
  }
  return bound;
}
