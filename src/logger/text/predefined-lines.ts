// The predefined text formats written directly: each line reads its fields (the built-in
// tokens, called by name, or for `:status`, `:http-version` and `:remote-user` a copy of the
// token that skips what its common value does not need: keep them in step with tokens.ts) and
// joins them in one template, where a compiled format walks its parts and calls each token
// through a generic step (a call through a table, a try/catch, an escaping decision per part).
// Those steps were about half of a `combined` line's cost.
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
import { builtinLineText, compile, declareTokenNames, tokenNamesOf } from './compile.js';

/** A predefined line for a redaction policy. */
type Line = (policy: RedactPolicy, req: LogRequest, res: LogResponse) => string;

/** A token's value as the compiled format writes it: "-" when missing, strings escaped. */
const text = (value: unknown) => builtinLineText(value, true);

const contentLength = (req: LogRequest, res: LogResponse) =>
  text(responseHeader(req, res, 'content-length'));

// A duration is made of digits only: nothing to escape.
const responseTime = (req: LogRequest, res: LogResponse) =>
  builtinLineText(responseTimeToken(req, res, undefined), false);

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

/**
 * `:remote-addr - :remote-user [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length]`,
 * as one template: each template joined to another with `+` is one more string to make.
 */
function common(policy: RedactPolicy, req: LogRequest, res: LogResponse): string {
  const address = text(remoteAddr(req, res));
  const user = userText(policy, req);
  const date = formatDate(Date.now(), 'clf');
  const verb = text(method(req, res));
  const url = urlText(policy, fullUrl(req));
  const version = versionText(req, res);
  const status = statusText(req, res);
  const length = contentLength(req, res);
  return `${address} - ${user} [${date}] "${verb} ${url} HTTP/${version}" ${status} ${length}`;
}

/** common, then ` ":referrer" ":user-agent"` */
function combined(policy: RedactPolicy, req: LogRequest, res: LogResponse): string {
  const headers = req.headers;
  return `${common(policy, req, res)} "${urlText(policy, referrerIn(headers))}" "${text(headers['user-agent'])}"`;
}

/** `:remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms` */
function short(policy: RedactPolicy, req: LogRequest, res: LogResponse): string {
  const address = text(remoteAddr(req, res));
  const user = userText(policy, req);
  const verb = text(method(req, res));
  const url = urlText(policy, fullUrl(req));
  const version = versionText(req, res);
  const status = statusText(req, res);
  const length = contentLength(req, res);
  const time = responseTime(req, res);
  return `${address} ${user} ${verb} ${url} HTTP/${version} ${status} ${length} - ${time} ms`;
}

/** `:method :url :status :res[content-length] - :response-time ms` */
function tiny(policy: RedactPolicy, req: LogRequest, res: LogResponse): string {
  const verb = text(method(req, res));
  const url = urlText(policy, fullUrl(req));
  const status = statusText(req, res);
  const length = contentLength(req, res);
  const time = responseTime(req, res);
  return `${verb} ${url} ${status} ${length} - ${time} ms`;
}

/** `:method :url :status :response-time ms - :res[content-length]` */
function devPlain(policy: RedactPolicy, req: LogRequest, res: LogResponse): string {
  const verb = text(method(req, res));
  const url = urlText(policy, fullUrl(req));
  const status = statusText(req, res);
  const time = responseTime(req, res);
  const length = contentLength(req, res);
  return `${verb} ${url} ${status} ${time} ms - ${length}`;
}

/**
 * The coloured `dev` line: the status after `colour` (an SGR sequence, `\x1b[32m`), everything
 * reset around it.
 */
function devColoured(
  colour: string,
  policy: RedactPolicy,
  req: LogRequest,
  res: LogResponse,
): string {
  const verb = text(method(req, res));
  const url = urlText(policy, fullUrl(req));
  const status = statusText(req, res);
  const time = responseTime(req, res);
  const length = contentLength(req, res);
  return `\x1b[0m${verb} ${url} ${colour}${status}\x1b[0m ${time} ms - ${length}\x1b[0m`;
}

export const predefinedLines = { common, combined, short, tiny, devPlain, devColoured };

/**
 * The format function of a predefined format: `line` (for the logger's redaction policy)
 * when it writes what `format` compiled would, the compiled format otherwise. Declares the format's tokens, as `compile` does.
 */
export function directFormat(format: string, line: Line): FormatFn<LogRequest, LogResponse> {
  const compiled = compile(format);
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
  return direct;
}
