// The tokens a logger with its own `redact` option hands to formats: the registry's, except
// that the redaction-dependent built-ins (`:url`, `:referrer`, `:req[...]`, `:res[...]`,
// `:query`) follow that logger's lists. The objects inherit from the registries, so a token
// defined later is still found, and a built-in the application replaces with `logger.token`
// (before or after) is found as replaced.
//
// Each escaping object remembers its policy, so that a format handed one (a JSON format or a
// predefined format called from the application's format function, say) masks what that
// logger masks.

import type { LogRequest, LogResponse, TokenFn, Tokens } from '../types.js';
import { DEFAULT_POLICY, type RedactPolicy } from './redact.js';
import {
  escapingToken,
  isBuiltinDefinition,
  rawTokenRegistry,
  tokenRegistry,
} from './token-registry.js';
import { redactingTokens } from './tokens.js';

/** The policy of each escaping tokens object, what the logger hands its format. */
const policies = new WeakMap<object, RedactPolicy>([[tokenRegistry, DEFAULT_POLICY]]);

/**
 * The redaction policy an escaping tokens object (what a logger hands its format) was made
 * for, or undefined for any other object (a caller's own, the raw tokens of JSON fields).
 */
export function policyOfTokens(tokens: unknown): RedactPolicy | undefined {
  return typeof tokens === 'object' && tokens !== null ? policies.get(tokens) : undefined;
}

function withOverrides(
  base: Tokens,
  policy: RedactPolicy,
  wrap: (n: string, f: TokenFn<LogRequest, LogResponse>) => TokenFn<LogRequest, LogResponse>,
): Tokens {
  const overrides: PropertyDescriptorMap = {};
  for (const [name, fn] of Object.entries(redactingTokens(policy))) {
    const own = wrap(name, fn);
    overrides[name] = {
      get: () =>
        isBuiltinDefinition(name)
          ? own
          : (base as Record<string, TokenFn<LogRequest, LogResponse>>)[name],
      enumerable: true,
    };
  }
  return Object.create(base, overrides) as Tokens;
}

const escaping = new WeakMap<RedactPolicy, Tokens>([[DEFAULT_POLICY, tokenRegistry]]);
const raw = new WeakMap<RedactPolicy, Tokens>([[DEFAULT_POLICY, rawTokenRegistry]]);

/** The tokens object of `policy` in `cache`, made once. */
function cached(cache: WeakMap<RedactPolicy, Tokens>, policy: RedactPolicy, make: () => Tokens) {
  let tokens = cache.get(policy);
  if (tokens === undefined) {
    tokens = make();
    cache.set(policy, tokens);
  }
  return tokens;
}

/** The escaping tokens (what format strings and format functions get) for `policy`. */
export function tokensFor(policy: RedactPolicy): Tokens {
  return cached(escaping, policy, () => {
    const tokens = withOverrides(tokenRegistry, policy, escapingToken);
    policies.set(tokens, policy);
    return tokens;
  });
}

/** The raw tokens (what JSON fields read) for `policy`. */
export function rawTokensFor(policy: RedactPolicy): Tokens {
  return cached(raw, policy, () => withOverrides(rawTokenRegistry, policy, (_name, fn) => fn));
}
