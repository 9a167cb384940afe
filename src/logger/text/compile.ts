// Format strings are compiled into a list of parts (literal text and token references) once,
// and rendered by walking that list. No code is generated from the string (morgan builds a
// `new Function` from it), so a format string cannot inject code, and the logger runs under
// `node --disallow-code-generation-from-strings`.

import { escapeLogField, isEscapedCopy } from '../core/escape.js';
import { DEFAULT_POLICY, type RedactPolicy, urlText } from '../core/redact.js';
import { policyOfTokens } from '../core/redacting-registry.js';
import { colouredStatus } from '../core/status-colour.js';
import { isBuiltinDefinition, registryVersion, tokenRegistry } from '../core/token-registry.js';
import { boundBuiltin, NOTHING_TO_ESCAPE, referrerHeader } from '../core/tokens.js';
import { fullUrl } from '../core/url-parts.js';
import { warnOncePerKey } from '../core/warnings.js';
import type { CompiledFormatFn, LogRequest, LogResponse, TokenFn, Tokens } from '../types.js';

/**
 * A token reference, as morgan matches it:
 *   reference = ":" name [ "[" argument "]" ]
 *   name      = 2*( ALPHA / DIGIT / "_" / "-" )
 *   argument  = 1*( any character but "]" )
 * Everything else is literal text, written as it is (never escaped).
 */
const TOKEN_REFERENCE = /:([-\w]{2,})(?:\[([^\]]+)\])?/g;

export interface TokenPart {
  readonly name: string;
  readonly arg: string | undefined;
}

export type FormatPart = string | TokenPart;

/**
 * The bracket argument as morgan hands it to the token. morgan matches token references in
 * the JSON-encoded format string and embeds the argument, still encoded, in the code it
 * generates, so the token receives the argument JSON-escaped: `:foo[a"b]` gives `a\"b`,
 * `:foo[a\b]` gives `a\\b`. Arguments of ordinary characters (header names, date formats,
 * digits) are unchanged. (Matching on the raw string finds the same references: encoding
 * touches only `"`, `\`, controls and lone surrogates, none of which a name, `[` or `]` is.)
 */
function morganArgument(arg: string | undefined): string | undefined {
  return arg === undefined ? undefined : JSON.stringify(arg).slice(1, -1);
}

/** Splits a format string into literal text and token references, in order. */
export function parseFormat(format: string): FormatPart[] {
  const parts: FormatPart[] = [];
  let end = 0;
  for (const match of format.matchAll(TOKEN_REFERENCE)) {
    if (match.index > end) parts.push(format.slice(end, match.index));
    parts.push({ name: match[1] ?? '', arg: morganArgument(match[2]) });
    end = match.index + match[0].length;
  }
  if (end < format.length) parts.push(format.slice(end));
  return parts;
}

type AnyTokenFn = TokenFn<LogRequest, LogResponse>;

/**
 * The token a format function was given under `name`, or, when that object has none (a caller
 * of `compile()` may pass its own object), the registered one. Tokens are looked up when a
 * line is rendered, so a token may be defined after a format that uses it.
 */
function findToken(tokens: Tokens | null | undefined, name: string): AnyTokenFn | undefined {
  const given = tokens == null ? undefined : (tokens as Record<string, unknown>)[name];
  if (typeof given === 'function') return given as AnyTokenFn;
  return tokenRegistry[name] as AnyTokenFn | undefined;
}

/** Renders one token reference with the token function found for it (or none). */
function renderToken(
  fn: AnyTokenFn | undefined,
  tokens: Tokens | null | undefined,
  part: TokenPart,
  req: LogRequest,
  res: LogResponse,
): string {
  if (fn === undefined) {
    // morgan throws on every request here; a typo in a format must not take a server down.
    warnOncePerKey(
      'HTTPWARE_LOGGER_UNKNOWN_TOKEN',
      part.name,
      `logger: the format uses ":${part.name}", which is not a defined token; it is written as "-"`,
    );
    return '-';
  }
  try {
    // Called as a method of `tokens`, as morgan's generated `tokens[name](req, res)` calls it,
    // so a token may reach the others through `this`.
    const value =
      part.arg === undefined ? fn.call(tokens, req, res) : fn.call(tokens, req, res, part.arg);
    // A missing or falsy value is "-"; anything else is concatenated as morgan's generated
    // code concatenates it (a number 5 gives "5").
    // biome-ignore lint/style/useTemplate: `+` keeps morgan's exact conversion of non-strings
    const text = '' + (value || '-');
    // Strings were escaped by the token registry, and numbers or booleans cannot forge a line.
    // An object's string form can (an array from Express's req.query for `?x=a%0Ab&x=c`): one
    // the registry escaped is a copy with its strings escaped; any other (from a tokens object
    // of the caller's own) is escaped here, where it becomes text.
    return (typeof value === 'object' && value !== null && !isEscapedCopy(value)) ||
      typeof value === 'function'
      ? escapeLogField(text)
      : text;
  } catch (err) {
    // Registered tokens never throw (their wrapper catches); this is a caller's own object
    // (or a value whose string conversion throws).
    warnOncePerKey(
      'HTTPWARE_LOGGER_TOKEN',
      part.name,
      `logger: token ":${part.name}" threw; it is written as "-"`,
      err,
    );
    return '-';
  }
}

/** One step of a line made with the registry: literal text, or a part rendered to text. */
type Step = string | ((req: LogRequest, res: LogResponse) => string);

/**
 * A built-in token's value as a line writes it: what the registry's wrapper would give
 * (strings escaped, when they may need it), then what morgan's format does with it.
 */
export function builtinLineText(value: unknown, mayNeedEscaping: boolean): string {
  if (typeof value === 'string') {
    if (value === '') return '-';
    return mayNeedEscaping ? escapeLogField(value) : value;
  }
  // undefined, or a number (a Content-Length set as one): concatenated as morgan does.
  // biome-ignore lint/style/useTemplate: `+` keeps morgan's exact conversion of non-strings
  return '' + (value || '-');
}

/** Built-ins whose text is a URL, masked and escaped in one pass (`urlText`), from the URL as sent. */
const URL_TOKENS: Readonly<Record<string, (req: LogRequest) => string | undefined>> = {
  url: fullUrl,
  referrer: referrerHeader,
};

/**
 * The step of a part whose registered token is still the built-in one: the built-in (for the
 * logger's redaction policy) bound to its argument is called directly, and what the
 * registry's wrapper adds (escaping strings, a throw written "-") is done here without its
 * generic argument handling, which was most of a token's cost.
 */
function builtinStep(
  part: TokenPart,
  mayNeedEscaping: boolean,
  policy: RedactPolicy,
  tokens: Tokens,
  colour: boolean,
): Step {
  // `:status[color]`: dev's colours in any format string. The escape sequences are the
  // format's own text, not a value: written as they are, around digits only.
  if (colour && part.name === 'status' && part.arg === COLOR) {
    return (_req, res) => colouredStatus(res);
  }
  const value = boundBuiltin(part.name, part.arg, policy);
  const urlOf = Object.hasOwn(URL_TOKENS, part.name) ? URL_TOKENS[part.name] : undefined;
  const fallback = (req: LogRequest, res: LogResponse) =>
    // The registered wrapper calls it again, warns once per token and gives "-".
    renderToken(findToken(tokens, part.name), tokens, part, req, res);
  if (urlOf !== undefined) {
    return function urlPart(req, res) {
      try {
        return urlText(policy, urlOf(req));
      } catch {
        return fallback(req, res);
      }
    };
  }
  return function builtinPart(req, res) {
    try {
      return builtinLineText(value(req, res), mayNeedEscaping);
    } catch {
      return fallback(req, res);
    }
  };
}

/**
 * The steps of a format's parts for a tokens object the logger made (the registry, or the
 * registry with one policy's redacting built-ins), with the tokens as they are now.
 */
function registrySteps(
  parts: readonly FormatPart[],
  escapes: readonly boolean[],
  policy: RedactPolicy,
  tokens: Tokens,
  colour: boolean,
): Step[] {
  return parts.map((part, i) => {
    if (typeof part === 'string') return part;
    if (isBuiltinDefinition(part.name)) {
      return builtinStep(part, escapes[i] as boolean, policy, tokens, colour);
    }
    const fn = findToken(tokens, part.name);
    return (req, res) => renderToken(fn, tokens, part, req, res);
  });
}

/** A format's steps for one tokens object, and the registry version they were made at. */
interface ResolvedSteps {
  steps: Step[];
  at: number;
}

const tokenNames = new WeakMap<Function, readonly string[]>();

/**
 * The token names a compiled format uses, or undefined for a format function that was not
 * made by `compile` (it may call any token).
 */
export function tokenNamesOf(format: Function): readonly string[] | undefined {
  return tokenNames.get(format);
}

/** Declares the tokens a format function reads (for a predefined format built by hand). */
export function declareTokenNames(format: Function, names: readonly string[]): void {
  tokenNames.set(format, names);
}

/** The argument of `:status` that colours it. */
const COLOR = 'color';

/** The source of each compiled format with a `:status[color]`, to make its plain twin. */
const colouredSources = new WeakMap<Function, string>();

/**
 * The format as a logger that may not colour writes it (NO_COLOR): a format compiled from a
 * string with `:status[color]` made again without colours; any other format as it is.
 */
export function withoutColour<F extends Function>(format: F): F {
  const source = colouredSources.get(format);
  return source === undefined ? format : (compileFormat(source, false) as unknown as F);
}

/** Compiles a format string into a format function `(tokens, req, res) => line`. */
export function compile(format: string): CompiledFormatFn<LogRequest, LogResponse> {
  return compileFormat(format, true);
}

function compileFormat(format: string, colour: boolean): CompiledFormatFn<LogRequest, LogResponse> {
  if (typeof format !== 'string') {
    throw new TypeError('argument format must be a string');
  }
  const parts = parseFormat(format);
  // Whether a part's value may need escaping, decided once.
  const escapes = parts.map(
    (part) => typeof part !== 'string' && !NOTHING_TO_ESCAPE.has(part.name),
  );
  // The steps of a line made with a tokens object the logger made (the registry, or one per
  // redaction policy), made at a registry version: names are looked up again only after `logger.token`
  // has changed the registry, instead of once per token per line.
  // The registry's (the default policy's) are kept apart, to be found without a lookup.
  const registry: ResolvedSteps = { steps: [], at: -1 };
  const resolved = new WeakMap<Tokens, ResolvedSteps>();
  const stepsFor = (policy: RedactPolicy, tokens: Tokens): Step[] => {
    let entry = tokens === tokenRegistry ? registry : resolved.get(tokens);
    if (entry === undefined) {
      entry = { steps: [], at: -1 };
      resolved.set(tokens, entry);
    }
    if (entry.at !== registryVersion()) {
      entry.steps = registrySteps(parts, escapes, policy, tokens, colour);
      entry.at = registryVersion();
    }
    return entry.steps;
  };
  const compiled = function compiledFormat(
    tokens: Tokens,
    req: LogRequest,
    res: LogResponse,
  ): string {
    let line = '';
    const policy = tokens === tokenRegistry ? DEFAULT_POLICY : policyOfTokens(tokens);
    if (policy === undefined) {
      // Another tokens object (a caller of `compile()` may pass its own) is read per line.
      for (const part of parts) {
        line +=
          typeof part === 'string'
            ? part
            : renderToken(findToken(tokens, part.name), tokens, part, req, res);
      }
      return line;
    }
    const steps = stepsFor(policy, tokens);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as Step;
      line += typeof step === 'string' ? step : step(req, res);
    }
    return line;
  };
  tokenNames.set(
    compiled,
    parts.flatMap((part) => (typeof part === 'string' ? [] : [part.name])),
  );
  if (
    colour &&
    parts.some((part) => typeof part !== 'string' && part.name === 'status' && part.arg === COLOR)
  ) {
    colouredSources.set(compiled, format);
  }
  return compiled;
}
