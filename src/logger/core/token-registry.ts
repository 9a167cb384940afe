// The token registry: one object holding every defined token by name. It is the `tokens`
// object handed to format functions, so `tokens[name](req, res, arg)` reaches any token.
// It is separate from the format registry (in morgan both live on the morgan function, and a
// token named like a format overwrites it).
//
// Each token is stored wrapped: the wrapper escapes its value, strings and the strings inside
// arrays and objects (so no token, built-in or custom, reaches a line unescaped, whether a
// format string or a format function reads it)
// and turns a throw into `undefined` (written `-`) plus one warning per token name. Properties
// are read-only so that code holding `tokens` cannot slip an unescaped token in; tokens change
// only through `defineToken`, which is what lets compiled formats cache their lookups.

import type { TokenFn, Tokens, TokenValue } from '../types.js';
import { escapeLogValue } from './escape.js';
import { builtinTokens } from './tokens.js';
import { warnOncePerKey } from './warnings.js';

// No prototype: `:constructor` or `:__proto__` in a format string must not find Object's.
export const tokenRegistry: Tokens = Object.create(null) as Tokens;

/**
 * The same tokens unwrapped: what they return, unescaped, and throwing when they throw. The
 * JSON formats read these, because JSON encoding escapes every string itself (escaping twice
 * would corrupt values) and a failing field is left out rather than written "-".
 */
export const rawTokenRegistry: Tokens = Object.create(null) as Tokens;

export function escapingToken<Req, Res>(name: string, fn: TokenFn<Req, Res>): TokenFn<Req, Res> {
  return function token(this: unknown, req: Req, res: Res, arg?: string): TokenValue {
    let value: TokenValue;
    try {
      // A token receives exactly the arguments it was given (`:name` passes none, `:name[x]`
      // one, a format function may pass more), without building arrays for the common calls.
      // biome-ignore lint/complexity/noArguments: the count tells `:name` from `:name[x]`
      const given = arguments;
      if (given.length === 3) value = fn.call(this, req, res, arg as string);
      else if (given.length === 2) value = fn.call(this, req, res);
      else value = Reflect.apply(fn, this, given) as TokenValue;
      // Inside the try: reading an object's properties or its string form may throw too.
      return escapeLogValue(value) as TokenValue;
    } catch (err) {
      warnOncePerKey(
        'HTTPWARE_LOGGER_TOKEN',
        name,
        `logger: token ":${name}" threw; it is written as "-"`,
        err,
      );
      return undefined;
    }
  };
}

/**
 * Incremented whenever a token is (re)defined. A compiled format resolves its tokens once and
 * checks this number once per line, looking the names up again only when it has changed, so
 * a token defined or replaced after a logger was created is used from the next line on, as
 * in morgan, which looks tokens up on every line.
 */
let version = 0;

export function registryVersion(): number {
  return version;
}

/** Names whose current definition is the built-in token's (not one given by the application). */
const builtinNames = new Set<string>();

export function isBuiltinDefinition(name: string): boolean {
  return builtinNames.has(name);
}

export function defineToken<Req, Res>(name: string, fn: TokenFn<Req, Res>): void {
  if (Object.hasOwn(builtinTokens, name) && builtinTokens[name] === fn) builtinNames.add(name);
  else builtinNames.delete(name);
  Object.defineProperty(tokenRegistry, name, {
    value: escapingToken(name, fn),
    enumerable: true,
    configurable: true,
    writable: false,
  });
  Object.defineProperty(rawTokenRegistry, name, {
    value: fn,
    enumerable: true,
    configurable: true,
    writable: false,
  });
  version++;
}

for (const [name, fn] of Object.entries(builtinTokens)) defineToken(name, fn);
