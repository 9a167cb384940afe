// The tokens a logger with its own `redact` option hands to formats: the registry's, except
// that the redaction-dependent built-ins (`:req[...]`, `:res[...]`, `:query`) follow that
// logger's lists. The objects inherit from the registries, so a token defined later is still
// found; a built-in the application has replaced with `logger.token` is left as replaced.

import type { TokenFn, Tokens } from '../types.js';
import { DEFAULT_POLICY, type RedactPolicy } from './redact.js';
import { escapingToken, rawTokenRegistry, tokenRegistry } from './token-registry.js';
import { builtinTokens, redactingTokens } from './tokens.js';

/** Whether the registry still holds the built-in token of that name. */
function stillBuiltin(name: string): boolean {
  return (rawTokenRegistry as Record<string, unknown>)[name] === builtinTokens[name];
}

function withOverrides(
  base: Tokens,
  policy: RedactPolicy,
  wrap: (n: string, f: TokenFn) => TokenFn,
) {
  const overrides: PropertyDescriptorMap = {};
  for (const [name, fn] of Object.entries(redactingTokens(policy))) {
    if (stillBuiltin(name)) overrides[name] = { value: wrap(name, fn), enumerable: true };
  }
  return Object.create(base, overrides) as Tokens;
}

/** The escaping tokens (what format strings and format functions get) for `policy`. */
export function tokensFor(policy: RedactPolicy): Tokens {
  return policy === DEFAULT_POLICY
    ? tokenRegistry
    : withOverrides(tokenRegistry, policy, escapingToken);
}

/** The raw tokens (what JSON fields read) for `policy`. */
export function rawTokensFor(policy: RedactPolicy): Tokens {
  return policy === DEFAULT_POLICY
    ? rawTokenRegistry
    : withOverrides(rawTokenRegistry, policy, (_name, fn) => fn);
}
