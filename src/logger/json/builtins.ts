// The built-in tokens as JSON fields, read straight from the request and response and written
// straight as JSON text. A JSON format reads a dozen fields per line; going through the token
// functions (escaped text for the text formats), then converting and encoding each value,
// made the `json` format cost twice what `combined` does. These readers are used only while
// the token is still the built-in one; a token the application replaced goes the general way.

import { bodyBytes, integerOf } from '../core/body-bytes.js';
import { isoDate, isoDateJson } from '../core/clf-date.js';
import { currentLine } from '../core/line.js';
import type { RedactPolicy } from '../core/redact.js';
import { lineMs, statusCodeOf } from '../core/timing.js';
import { builtinTokens, redactingTokens } from '../core/tokens.js';
import { urlPath } from '../core/url-parts.js';
import type { TokenPart } from '../text/compile.js';
import type { LogRequest, LogResponse, TokenFn } from '../types.js';
import { encodeString } from './encode.js';

export { integerOf };

/** A field's JSON text for a request, or undefined to leave the field out. */
export type TextFn = (req: LogRequest, res: LogResponse) => string | undefined;

// What a line reads more than once, read once per line (kept on its `Line`)

/**
 * Milliseconds from the request's arrival until its line (made when the response is done),
 * read once per line: `msg`, `duration_ms` and `event.duration` then agree exactly.
 */
export const lineDuration: (req: LogRequest, res: LogResponse) => number | undefined = lineMs;

/**
 * `ms` rounded to `digits` decimals. Arithmetic rather than `toFixed`, which cost a third of
 * the json format's time when it was used for the durations.
 */
export function roundTo(ms: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(ms * scale) / scale;
}

/** `.5`, `.05`, `.005`, `.123`: the text after the point of each count of thousandths. */
const THOUSANDTHS: readonly string[] = Array.from({ length: 1000 }, (_, n) =>
  n === 0 ? '' : String(n / 1000).slice(1),
);

/**
 * `String(roundTo(ms, digits))`. With three decimals (the presets' durations), written from
 * the whole count of thousandths instead of converting a fractional double to text, the
 * costliest step of writing a duration: `String` writes `n / 1000` as that decimal, since a
 * double tells apart any two decimals of at most 15 digits.
 */
export function roundedText(ms: number, digits: number): string {
  const count = Math.round(ms * 1000);
  if (digits !== 3 || !(count >= 0 && count <= 0x7fffffff)) return String(roundTo(ms, digits));
  const whole = Math.trunc(count / 1000);
  return `${whole}${THOUSANDTHS[count - whole * 1000]}`;
}

/** The decimals `:total-time[digits]` asks for, as the text token reads them; NaN when none. */
export function durationDigits(arg: string | undefined): number {
  const digits = arg === undefined ? 3 : Math.trunc(Number(arg)) || 0;
  // Outside 0..100 the text token has no value; beyond 15, rounding a double changes nothing.
  return digits < 0 || digits > 100 ? Number.NaN : Math.min(digits, 15);
}

let isoTextMs = Number.NaN;
let isoText = '';
let isoJsonMs = Number.NaN;
let isoJson = '';

/** Reads the clock once per line: a line and the OpenTelemetry record made with it agree. */
function lineClock(): number {
  const line = currentLine();
  if (line === undefined) return Date.now();
  if (Number.isNaN(line.time)) line.time = Date.now();
  return line.time;
}

/**
 * The time of the line being made in ISO 8601 (UTC, milliseconds), read once per line (see
 * `lineClock`) and rendered at most once a millisecond.
 */
export function isoNow(): string {
  const ms = lineClock();
  if (ms !== isoTextMs) {
    isoTextMs = ms;
    isoText = isoDate(ms);
  }
  return isoText;
}

/** The time of the line being made, in milliseconds since the epoch. */
export function lineTime(): number {
  return lineClock();
}

/** `isoNow()` as JSON text, rendered at most once a millisecond. */
export function isoNowJson(): string {
  const ms = lineClock();
  if (ms !== isoJsonMs) {
    isoJsonMs = ms;
    isoJson = isoDateJson(ms);
  }
  return isoJson;
}

// The readers

function stringText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? encodeString(value) : undefined;
}

/** `req.id`: a string, or a number when the application's own middleware made one. */
function requestIdText(id: unknown): string | undefined {
  return typeof id === 'number' ? (Number.isFinite(id) ? String(id) : undefined) : stringText(id);
}

export function integerText(value: unknown): string | undefined {
  const n = integerOf(value);
  return n === undefined ? undefined : String(n);
}

/** A built-in whose value is a string read by its own token function. */
function viaToken(fn: TokenFn<LogRequest, LogResponse>, arg: string | undefined): TextFn {
  return arg === undefined
    ? (req, res) => stringText(fn(req, res))
    : (req, res) => stringText(fn(req, res, arg));
}

function durationText(arg: string | undefined): TextFn {
  const digits = durationDigits(arg);
  if (Number.isNaN(digits)) return () => undefined;
  return (req, res) => {
    const ms = lineDuration(req, res);
    return ms === undefined ? undefined : roundedText(ms, digits);
  };
}

/** Headers that carry a size, logged as integers by `:req[...]` and `:res[...]`. */
export const SIZE_HEADERS: ReadonlySet<string> = new Set(['content-length']);

function headerJsonText(
  fn: TokenFn<LogRequest, LogResponse>,
  arg: string | undefined,
): TextFn | undefined {
  if (arg === undefined) return undefined;
  if (!SIZE_HEADERS.has(arg.toLowerCase())) return viaToken(fn, arg);
  return (req, res) => integerText(fn(req, res, arg));
}

/**
 * The direct reader of a built-in token for `policy`, or undefined when the token has none
 * here (a date other than ISO, a header token without a name).
 */
export function builtinJsonText(part: TokenPart, policy: RedactPolicy): TextFn | undefined {
  const { name, arg } = part;
  switch (name) {
    case 'method':
      return (req) => stringText(req.method);
    case 'status':
      return (_req, res) => {
        const code = statusCodeOf(res);
        return code === undefined ? undefined : String(code);
      };
    case 'http-version':
      return (req) => `"${req.httpVersionMajor}.${req.httpVersionMinor}"`;
    case 'date':
      return arg === 'iso' ? isoNowJson : undefined;
    case 'total-time':
      return durationText(arg);
    case 'path':
      return (req) => stringText(urlPath(req));
    case 'user-agent':
      return (req) => stringText(req.headers['user-agent']);
    case 'query':
      return viaToken(redactingTokens(policy).query, undefined);
    case 'req':
    case 'res':
      return headerJsonText(redactingTokens(policy)[name], arg);
    case 'remote-addr':
    case 'route':
    case 'trace-id':
    case 'span-id':
    case 'trace-flags':
    case 'error-type':
    case 'error-message':
      return viaToken(builtinTokens[name] as TokenFn<LogRequest, LogResponse>, arg);
    case 'request-id':
      return (req) => requestIdText((req as { id?: unknown }).id);
    case 'res-body-bytes':
      return (req, res) => integerText(bodyBytes(req, res));
    default:
      return undefined;
  }
}
