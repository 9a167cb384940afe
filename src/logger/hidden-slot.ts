// Per-request state kept off `req` and `res` as far as any code can see: a private class field
// (`#value`) added to an object that was not made by the class. A constructor that returns an
// object makes `this` that object in a subclass, so `super(target)` lets the subclass's field
// initialiser add `#value` to `target` itself (the "return override" of ECMAScript classes).
//
// Why not a WeakMap: each entry is an ephemeron, and with one or two entries per request the
// bench measured a `set` at over a microsecond (table growth, and the collector tracing every
// entry), about as much as the rest of a logged line. A private field costs what adding a
// property costs. Why not a Symbol: `Reflect.ownKeys`, `Object.getOwnPropertySymbols` and
// `util.inspect` show symbols; private names are shown by none of them, nor by `Object.keys`,
// `for...in`, spreads or JSON, and no code outside this module can read or change them.
// (Private fields may be added to frozen or non-extensible objects, as in Node 20 to 24.)

/** A constructor returning its argument, so that a subclass's `this` is that argument. */
const ReturnTarget = function returnTarget(target: object): object {
  return target;
} as unknown as new (
  target: object,
) => object;

export interface HiddenSlot<T extends object> {
  /** The value attached to `target`, if any. */
  get(target: object): T | undefined;
  /** Attaches `value` to `target`, which must have none yet (check with `get`). */
  attach(target: object, value: T): void;
}

/** A new slot: its private name is distinct from every other slot's. */
export function hiddenSlot<T extends object>(): HiddenSlot<T> {
  class Slot extends ReturnTarget {
    #value: T;
    constructor(target: object, value: T) {
      super(target);
      this.#value = value;
    }
    static get(target: object): T | undefined {
      // A token may be called by hand with anything: a non-object has no slot (and `in` would
      // throw on it).
      if (typeof target !== 'object' || target === null) return undefined;
      return #value in target ? (target as Slot).#value : undefined;
    }
  }
  return {
    get: Slot.get,
    attach(target, value) {
      new Slot(target, value);
    },
  };
}
