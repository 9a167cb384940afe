// A runtime's own state kept on its Web objects under a symbol (undici's Response `state` on
// Node 20 and 22, Deno's inner Request and Response): read, feature-detected, where a door
// gains from a fact the standard keeps but does not expose (a body's length, a body held whole
// in memory). Every object of one kind is keyed by the same symbol, so once found it is read
// directly: listing an object's symbols and reading their descriptions each time was 1.7 % of
// a `fetchLogger('json')` request's profile on Node 20 (150-250 ns with the key kept, against
// 270-290).

const foundKeys = new Map<string, symbol>();

/** An own property keyed by a symbol of this description, if the object has one. */
export function symbolValue(object: object, description: string): unknown {
  const found = foundKeys.get(description);
  if (found !== undefined) {
    const value = (object as Record<symbol, unknown>)[found];
    if (value !== undefined) return value;
  }
  for (const key of Object.getOwnPropertySymbols(object)) {
    if (key.description === description) {
      foundKeys.set(description, key);
      return (object as Record<symbol, unknown>)[key];
    }
  }
  return undefined;
}
