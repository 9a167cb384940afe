// Held lines are written before the process ends, without changing how it ends.
//
// - `process.exit()`, the end of the event loop and an uncaught exception all emit 'exit',
//   where only synchronous work runs: each live destination writes what it holds there
//   (writes are synchronous anyway, see destination.ts).
// - A signal whose default action ends the process (SIGTERM, SIGINT, SIGHUP) emits no 'exit':
//   Node kills the process. Listening for it replaces that default, so the listener writes
//   what is held and then, when nobody else listens (the application has no handler of its
//   own), removes itself and sends the signal again: the process ends by the same signal, with
//   the same status, as it would without httpware. When the application (or a destination's
//   `reopenOn`) listens too, that listener decides, as it would without us: we do not exit.
// - Deno emits no 'exit' when an uncaught exception or rejection ends the process (neither
//   does its own 'unload'); it dispatches 'error' or 'unhandledrejection' on the global scope
//   first. Listening there without `preventDefault()` leaves the ending as it was, so where
//   the global scope is an event target, what is held is written then too. (Node's is not;
//   Bun's emits 'exit' as Node does, and a second flush finds nothing held.)
//
// pino's destination flushes on 'exit' only, so an unhandled SIGTERM loses what it holds
// (pino #2002); sonic-boom's `flushSync` could race a write still in flight (sonic-boom #101),
// which cannot happen here: no write is ever in flight off the main thread.

/** What the registry needs of a destination. */
export interface Flushable {
  /** Writes what is held, synchronously, waiting at most the destination's exit timeout. */
  flushAtExit(): void;
  /** Writes what the target takes now, without waiting: the process is not ending yet. */
  flushNow(): void;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

const live = new Set<Flushable>();
let installed = false;

function flushAll(): void {
  for (const destination of live) destination.flushAtExit();
}

/**
 * Marks this listener across copies of httpware in one process (two bundles, say): each copy's
 * listener is not "someone else's handler" to the others, or none would send the signal again
 * and the process would not end.
 */
const OURS = Symbol.for('httpware.destination.exit');

/**
 * How many of `signal`'s listeners are signal-exit's (v4 counts them on a global emitter, v3
 * on `process.__signal_exit_emitter__`; one listener per signal for each). signal-exit, like
 * us, sends the signal again only when it listens alone: counted as an application's, each
 * would leave it to the other and the process would never end. With ours gone, it is alone.
 */
function signalExitListeners(): number {
  const v4 = (globalThis as Record<symbol, { count?: unknown } | undefined>)[
    Symbol.for('signal-exit emitter')
  ];
  const v3 = (process as { __signal_exit_emitter__?: { count?: unknown } }).__signal_exit_emitter__;
  const countOf = (emitter: { count?: unknown } | undefined) =>
    typeof emitter?.count === 'number' ? emitter.count : 0;
  return countOf(v4) + countOf(v3);
}

/** Whether the application listens for `signal`, so that its handler decides what happens. */
function applicationListens(signal: NodeJS.Signals): boolean {
  let others = 0;
  for (const listener of process.listeners(signal)) if (!(OURS in listener)) others += 1;
  return others > signalExitListeners();
}

function onSignal(signal: NodeJS.Signals): void {
  if (applicationListens(signal)) {
    // The process may live on (a reload on SIGHUP, a graceful shutdown that answers for a
    // while): nothing is dropped and the event loop is not held. If it ends, 'exit' writes
    // what is left.
    for (const destination of live) destination.flushNow();
    return;
  }
  flushAll();
  process.removeListener(signal, onSignal);
  process.kill(process.pid, signal);
}
Object.defineProperty(onSignal, OURS, { value: true });

/** The events that announce an uncaught failure on a global scope that is an event target. */
const GLOBAL_FAILURES = ['error', 'unhandledrejection'] as const;

interface GlobalEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

function globalEvents(): GlobalEvents | undefined {
  const scope = globalThis as Partial<GlobalEvents>;
  return typeof scope.addEventListener === 'function' &&
    typeof scope.removeEventListener === 'function'
    ? (scope as GlobalEvents)
    : undefined;
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', flushAll);
  // First in line: an application's `process.once` handler removes itself before it runs,
  // and after it ran we would no longer see it and would end the process under it.
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
  for (const type of GLOBAL_FAILURES) globalEvents()?.addEventListener(type, flushAll);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('exit', flushAll);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  for (const type of GLOBAL_FAILURES) globalEvents()?.removeEventListener(type, flushAll);
}

/** A destination that may hold lines: written at exit until `leave`. */
export function enter(destination: Flushable): void {
  live.add(destination);
  install();
}

/** An ended destination: when none is left, the process's listeners are removed. */
export function leave(destination: Flushable): void {
  live.delete(destination);
  if (live.size === 0) uninstall();
}

/** The reopen signals' listeners: one per signal for every destination reopened by it. */
const reopeners = new Map<NodeJS.Signals, Set<() => void>>();

function reopenAll(this: void, signal: NodeJS.Signals): void {
  for (const reopen of reopeners.get(signal) ?? []) reopen();
}

/** Calls `reopen` on `signal` until `stopReopening`; the signal is the application's now. */
export function reopenOn(signal: NodeJS.Signals, reopen: () => void): void {
  let set = reopeners.get(signal);
  if (set === undefined) {
    set = new Set();
    reopeners.set(signal, set);
    process.on(signal, reopenAll);
  }
  set.add(reopen);
}

export function stopReopening(signal: NodeJS.Signals, reopen: () => void): void {
  const set = reopeners.get(signal);
  if (set === undefined) return;
  set.delete(reopen);
  if (set.size > 0) return;
  reopeners.delete(signal);
  process.removeListener(signal, reopenAll);
}
