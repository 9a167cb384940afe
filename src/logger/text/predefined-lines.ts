// The predefined text formats written directly: a format string of formats.ts (the one
// definition of each predefined line) is split once, at load, into its literal text and its
// token references, and each reference is read by a field of FIELDS: the built-in token, called
// by name, or for `:status`, `:http-version` and `:remote-user` a copy of the token that skips
// what its common value does not need (keep those in step with tokens.ts; the differential
// test test/logger/direct-lines.test.ts compares every predefined line with its compiled
// format). A compiled format walks its parts and calls each token through a generic step (a
// call through a table, a try/catch, an escaping decision per part); those steps were about
// half of a `combined` line's cost.
//
// A direct line is used only while it is exactly what the compiled format would write: the
// logger passes a tokens object of its own (the registry, or the registry with its `redact`
// option's built-ins, whose policy the line then follows) and every token the format uses is
// still the built-in one (`logger.token` has not replaced any). Otherwise, and if a token
// throws, the line is made by the compiled format, which writes "-" for a token that throws
// and warns once; the tokens called here read only the request and the response, so calling
// them again there changes nothing.

import { loggedUser } from '../core/basic-auth.js';
import { formatDate } from '../core/clf-date.js';
import { DEFAULT_POLICY, type RedactPolicy, urlText } from '../core/redact.js';
import { policyOfTokens } from '../core/redacting-registry.js';
import { statusCodeOf } from '../core/timing.js';
import { isBuiltinDefinition, registryVersion, tokenRegistry } from '../core/token-registry.js';
import {
  httpVersion,
  method,
  referrerIn,
  remoteAddr,
  responseHeader,
  responseTimeToken,
  status as statusToken,
} from '../core/tokens.js';
import { fullUrl } from '../core/url-parts.js';
import type { FormatFn, LogRequest, LogResponse, Tokens } from '../types.js';
import {
  builtinLineText,
  compile,
  declareTokenNames,
  parseFormat,
  tokenNamesOf,
} from './compile.js';

/** A predefined line for a redaction policy. */
type Line = (policy: RedactPolicy, req: LogRequest, res: LogResponse) => string;

/** A token's value as the compiled format writes it: "-" when missing, strings escaped. */
const text = (value: unknown) => builtinLineText(value, true);

/**
 * `:status`. A number (what a head goes out with: node:http checks it) needs no escaping test;
 * anything else (an application's own assignment, or none) is the token's text, escaped.
 */
function statusText(req: LogRequest, res: LogResponse): string {
  const code: unknown = statusCodeOf(res);
  return typeof code === 'number' ? `${code}` : text(statusToken(req, res));
}

/** `:http-version`: HTTP/1.1, the version nearly every request has, without a test. */
function versionText(req: LogRequest, res: LogResponse): string {
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1
    ? '1.1'
    : text(httpVersion(req, res));
}

/** `:remote-user`: with no Authorization header there is nothing to decode. */
function userText(policy: RedactPolicy, req: LogRequest): string {
  const credentials = req.headers.authorization;
  return credentials === undefined ? '-' : text(loggedUser(policy, credentials));
}

/** A field of a predefined line: the text of one token reference, read directly. */
type Field = (policy: RedactPolicy, req: LogRequest, res: LogResponse) => string;

/**
 * The fields the predefined formats use, by token reference (`name` or `name[argument]`), each
 * writing what the compiled format writes for that reference. A line is made of these and of
 * the format string's own literal text, so the format strings in formats.ts are the one
 * definition of the predefined lines.
 */
const FIELDS: Readonly<Record<string, Field>> = {
  'remote-addr': (_policy, req, res) => text(remoteAddr(req, res)),
  'remote-user': userText,
  'date[clf]': () => `${formatDate(Date.now(), 'clf')}`,
  method: (_policy, req, res) => text(method(req, res)),
  url: (policy, req) => urlText(policy, fullUrl(req)),
  'http-version': (_policy, req, res) => versionText(req, res),
  status: (_policy, req, res) => statusText(req, res),
  'res[content-length]': (_policy, req, res) => text(responseHeader(req, res, 'content-length')),
  // A duration is made of digits only: nothing to escape.
  'response-time': (_policy, req, res) =>
    builtinLineText(responseTimeToken(req, res, undefined), false),
  referrer: (policy, req) => urlText(policy, referrerIn(req.headers)),
  'user-agent': (_policy, req) => text(req.headers['user-agent']),
};

/** The most fields a direct line has (combined has ten). */
const MAX_FIELDS = 12;

const none: Field = () => '';

/**
 * The line of a format string made only of references in FIELDS: its literal text and fields
 * in order, joined with no generic step. Throws (at load, as formats.ts builds its formats)
 * for a reference with no direct field, so a predefined format cannot outgrow this table.
 */
export function directLine(format: string): Line {
  // texts[i] is the literal text before fields[i]; the last one follows the last field.
  const texts: string[] = [''];
  const fields: Field[] = [];
  for (const part of parseFormat(format)) {
    if (typeof part === 'string') {
      texts[texts.length - 1] += part;
      continue;
    }
    const reference = part.arg === undefined ? part.name : `${part.name}[${part.arg}]`;
    const field = Object.hasOwn(FIELDS, reference) ? FIELDS[reference] : undefined;
    if (field === undefined) throw new Error(`no direct field for ":${reference}"`);
    fields.push(field);
    texts.push('');
  }
  if (fields.length > MAX_FIELDS) throw new Error(`more than ${MAX_FIELDS} fields: ${format}`);
  // Written out, not walked in a loop: each call below then sees the one field of its place in
  // the format a logger uses, and the compiler inlines it, where a loop's one call sees them
  // all (a loop cost 1.2 % more instructions per combined line). Unused places call `none`.
  const [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = Array.from(
    { length: MAX_FIELDS },
    (_, i) => fields[i] ?? none,
  ) as [Field, Field, Field, Field, Field, Field, Field, Field, Field, Field, Field, Field];
  const [t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12] = Array.from(
    { length: MAX_FIELDS + 1 },
    (_, i) => texts[i] ?? '',
  );
  return function directLine(p, req, res) {
    return `${t0}${f0(p, req, res)}${t1}${f1(p, req, res)}${t2}${f2(p, req, res)}${t3}${f3(p, req, res)}${t4}${f4(p, req, res)}${t5}${f5(p, req, res)}${t6}${f6(p, req, res)}${t7}${f7(p, req, res)}${t8}${f8(p, req, res)}${t9}${f9(p, req, res)}${t10}${f10(p, req, res)}${t11}${f11(p, req, res)}${t12}`;
  };
}

/** Every direct format made, by its format string (the differential test walks them all). */
const made = new Map<string, FormatFn<LogRequest, LogResponse>>();
export const directFormats: ReadonlyMap<string, FormatFn<LogRequest, LogResponse>> = made;

/**
 * The format function of a predefined format: `line` (for the logger's redaction policy)
 * when it writes what `format` compiled would, the compiled format otherwise. Declares the format's tokens, as `compile` does.
 */
export function directFormat(format: string): FormatFn<LogRequest, LogResponse> {
  const compiled = compile(format);
  const line = directLine(format);
  const names = tokenNamesOf(compiled) ?? [];
  let checkedAt = -1;
  let allBuiltin = false;
  const direct = function predefinedFormat(tokens: Tokens, req: LogRequest, res: LogResponse) {
    const policy = tokens === tokenRegistry ? DEFAULT_POLICY : policyOfTokens(tokens);
    if (policy === undefined) return compiled(tokens, req, res);
    if (checkedAt !== registryVersion()) {
      checkedAt = registryVersion();
      allBuiltin = names.every(isBuiltinDefinition);
    }
    if (!allBuiltin) return compiled(tokens, req, res);
    try {
      return line(policy, req, res);
    } catch {
      return compiled(tokens, req, res);
    }
  };
  declareTokenNames(direct, names);
  made.set(format, direct);
  return direct;
}
