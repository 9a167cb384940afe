// The `json` and `ecs` predefined formats, built with `logger.json` from the same field maps
// users can start from (`logger.json.presets`).
//   json: flat keys named after OpenTelemetry's stable HTTP semantic conventions
//         (https://opentelemetry.io/docs/specs/semconv/http/http-spans/), plus time, level
//         and msg, which every log collector recognises.
//   ecs:  Elastic Common Schema (https://www.elastic.co/guide/en/ecs/current/), with the three
//         fields ecs-logging requires first: @timestamp, log.level, message.

import { failureOf } from '../../failures.js';
import { traceFlagsText } from '../core/active-span.js';
import { bodyBytes } from '../core/body-bytes.js';
import { errorMessageOf, errorTypeOf } from '../core/failure.js';
import { currentLine } from '../core/line.js';
import { type RedactPolicy, targetHint } from '../core/redact.js';
import { spanOf, statusCodeOf } from '../core/timing.js';
import { builtinTokens } from '../core/tokens.js';
import { fullUrl, pathOf, queryOf, urlPath } from '../core/url-parts.js';
import type { TokenPart } from '../text/compile.js';
import type { JsonFields, LogLevel, LogRequest, LogResponse, TokenFn } from '../types.js';
import {
  builtinJsonText,
  integerText,
  isoNowJson,
  lineDuration,
  roundedText,
  type TextFn,
} from './builtins.js';
import { encodeInner, NEEDS_ESCAPE_CLASS } from './encode.js';
import { declareFieldTokens, declarePresetLine, type OpenLine } from './format.js';

/** The ECS version whose field names the `ecs` preset uses. */
const ECS_VERSION = '8.11.0';

/**
 * The severity of a finished request: a 5xx is the server's failure, a 4xx the client's, and
 * a request that ended before any response was sent (the client went away) is worth a look.
 */
export function defaultLevelOf(res: LogResponse): 'info' | 'warn' | 'error' {
  return levelOfStatus(statusCodeOf(res));
}

/** `defaultLevelOf` from the status code a line names (undefined: no response). */
function levelOfStatus(status: number | undefined): 'info' | 'warn' | 'error' {
  if (status === undefined) return 'warn';
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

/** The line's level: the one the `level` and `slow` options gave it, else the default. */
function levelOf(res: LogResponse): Level {
  return (currentLine()?.level as Level | undefined) ?? defaultLevelOf(res);
}

type Level = Exclude<LogLevel, 'silent'>;

const LEVEL_TEXT: Readonly<Record<Level, string>> = {
  trace: '"trace"',
  debug: '"debug"',
  info: '"info"',
  warn: '"warn"',
  error: '"error"',
  fatal: '"fatal"',
};

const levelText: TextFn = (_req, res) => LEVEL_TEXT[levelOf(res)];

const level = declareFieldTokens((_tokens, _req, res) => levelOf(res), ['status'], levelText);

/** The status code as text, once the response's head is out (or it was answered late). */
function statusOf(res: LogResponse): string | undefined {
  const status = statusCodeOf(res);
  return status === undefined ? undefined : String(status);
}

// The body's size: the announced length, or the bytes written (see core/body-bytes.ts); the
// token it declares makes the logger count the bytes of a response that announces no length.
const sizeText: TextFn = (req, res) => integerText(bodyBytes(req, res));

const bodySize = declareFieldTokens(
  (_tokens, req, res) => bodyBytes(req, res),
  ['res-body-bytes'],
  sizeText,
);

/** `12.3`, `4.0`: one decimal always shown, without the cost of `toFixed`. */
function oneDecimal(ms: number): string {
  const tenths = Math.round(ms * 10);
  const whole = Math.trunc(tenths / 10);
  return `${whole}.${Math.abs(tenths - whole * 10)}`;
}

/** What follows the method and path in the message: ` 200 12.3 ms`. */
function messageTail(status: string | undefined, ms: number | undefined): string {
  const time = ms === undefined ? '' : ` ${oneDecimal(ms)} ms`;
  return ` ${status ?? '(no response)'}${time}`;
}

/**
 * A short human line: `GET /users/42 200 12.3 ms`, read from the request itself. The query is
 * left out (it may hold secrets).
 */
function messageOf(req: LogRequest, res: LogResponse): string {
  return `${req.method} ${urlPath(req)}${messageTail(statusOf(res), lineDuration(req, res))}`;
}

/**
 * The message as JSON text, from its method and path already escaped: a line that writes
 * them as fields too escapes each once (see `encodeInner`).
 */
function messageJson(
  methodInner: string,
  pathInner: string,
  status: string | undefined,
  ms: number | undefined,
): string {
  return `"${methodInner} ${pathInner}${messageTail(status, ms)}"`;
}

const messageText: TextFn = (req, res) =>
  messageJson(
    encodeInner(`${req.method}`),
    encodeInner(`${urlPath(req)}`),
    statusOf(res),
    lineDuration(req, res),
  );

const message = declareFieldTokens(
  (_tokens, req, res) => messageOf(req, res),
  ['method', 'path', 'status', 'total-time'],
  messageText,
);

/** ECS's `event.duration` is in nanoseconds. */
function nanoseconds(ms: number): number {
  return Math.round(ms * 1e6);
}

/** `0` to `999`, and the same as three digits (`000` to `999`): a number's text by groups. */
const GROUPS: readonly string[] = Array.from({ length: 1000 }, (_, n) => String(n));
const PADDED_GROUPS: readonly string[] = GROUPS.map((text) => text.padStart(3, '0'));

/**
 * `String(ns)` for a line's nanoseconds, joined from groups of three digits below a second.
 * A duration in nanoseconds is a new number every line, never in V8's cache of numbers
 * recently written as text, so `String` converted it in the runtime: about 450 instructions
 * of a 9,000-instruction `ecs` line (callgrind), against about 150 for the joined groups.
 */
function nanosecondsText(ns: number): string {
  if (!(ns >= 0 && ns < 1e9)) return String(ns);
  const ms = Math.trunc(ns / 1e6);
  const us = Math.trunc(ns / 1e3) - ms * 1e3;
  const rest = ns - ms * 1e6 - us * 1e3;
  if (ms > 0) return `${GROUPS[ms]}${PADDED_GROUPS[us]}${PADDED_GROUPS[rest]}`;
  return us > 0 ? `${GROUPS[us]}${PADDED_GROUPS[rest]}` : (GROUPS[rest] as string);
}

const durationNs = declareFieldTokens(
  (_tokens, req, res) => {
    const ms = lineDuration(req, res);
    return ms === undefined ? undefined : nanoseconds(ms);
  },
  ['total-time'],
);

/**
 * The protocol version as OpenTelemetry writes it ("1.0", "1.1", "2", "3"): HTTP/2 and later
 * have no minor version, where `:http-version` (and ECS's `http.version`, which Elastic's own
 * Node helpers fill from `req.httpVersion`) keep Node's "2.0".
 */
export function otelVersion(major: number, minor: number): string {
  return major >= 2 && minor === 0 ? String(major) : `${major}.${minor}`;
}

const protocolVersion = declareFieldTokens(
  (_tokens, req) => otelVersion(req.httpVersionMajor, req.httpVersionMinor),
  [],
  (req) => `"${otelVersion(req.httpVersionMajor, req.httpVersionMinor)}"`,
);

/** The fields both presets name alike, in their place: the request, its status, its error. */
const REQUEST_AND_OUTCOME = {
  'http.request.method': ':method',
  'url.path': ':path',
  'url.query': ':query',
  'http.response.status_code': ':status',
  'error.type': ':error-type',
  'error.message': ':error-message',
} as const;

const json: JsonFields = Object.freeze({
  time: ':date[iso]',
  level,
  msg: message,
  ...REQUEST_AND_OUTCOME,
  'http.response.body.size': bodySize,
  duration_ms: ':total-time',
  'client.address': ':remote-addr',
  'user_agent.original': ':user-agent',
  'network.protocol.version': protocolVersion,
  'http.route': ':route',
  'http.request.id': ':request-id',
  trace_id: ':trace-id',
  span_id: ':span-id',
  trace_flags: ':trace-flags',
});

const ecs: JsonFields = Object.freeze({
  '@timestamp': ':date[iso]',
  'log.level': level,
  message,
  'ecs.version': ECS_VERSION,
  ...REQUEST_AND_OUTCOME,
  'http.response.body.bytes': bodySize,
  'event.duration': durationNs,
  'client.ip': ':remote-addr',
  'user_agent.original': ':user-agent',
  'http.version': ':http-version',
  'http.request.id': ':request-id',
  'trace.id': ':trace-id',
  'span.id': ':span-id',
});

// The presets' lines written straight

/** The direct reader of a built-in token the presets use (it has one for every such token). */
function reader(policy: RedactPolicy, name: string, arg?: string): TextFn {
  const part: TokenPart = { name, arg };
  return builtinJsonText(part, policy) as TextFn;
}

/**
 * Where a preset writes each of its values: the text before it, `,"key":` (the first one
 * opens the object), in the field map's order. `afterMessage` is the literal fields that
 * follow the message; a preset without a route has no `route`.
 */
interface PresetLayout {
  readonly time: string;
  readonly level: string;
  readonly message: string;
  readonly afterMessage: string;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly status: string;
  readonly errorType: string;
  readonly errorMessage: string;
  readonly size: string;
  readonly duration: string;
  readonly address: string;
  readonly agent: string;
  readonly version: string;
  /** The version's text other than 1.1, from the request's major and minor versions. */
  readonly versionText: (major: number, minor: number) => string;
  readonly route: string | undefined;
  readonly id: string;
  readonly trace: string;
  readonly span: string;
  /** The trace flags' key; undefined leaves them out (ECS has no field for them). */
  readonly flags: string | undefined;
  /** The duration's JSON text, from milliseconds; undefined leaves it out. */
  readonly durationText: (ms: number) => string | undefined;
}

/** `line` with the field `key` + `text` added, or as it is when the field has no value. */
function withField(line: string, key: string, text: string | undefined): string {
  return text === undefined ? line : line + key + text;
}

/** `line` with the string field `open` (its key and opening quote) + `value` added, if any. */
function withString(line: string, open: string, value: unknown): string {
  return typeof value === 'string' && value !== '' ? `${line}${open}${encodeInner(value)}"` : line;
}

const remoteAddress = builtinTokens['remote-addr'] as TokenFn<LogRequest, LogResponse>;

/** Methods a line writes without an escaping test: none holds a character to escape. */
const PLAIN_METHODS: readonly string[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PATCH',
];

/** The index of a method in `PLAIN_METHODS`, or -1: compared, cheaper than a Map's lookup. */
function plainMethod(method: unknown): number {
  switch (method) {
    case 'GET':
      return 0;
    case 'HEAD':
      return 1;
    case 'POST':
      return 2;
    case 'PUT':
      return 3;
    case 'DELETE':
      return 4;
    case 'OPTIONS':
      return 5;
    case 'PATCH':
      return 6;
    default:
      return -1;
  }
}

/** ` 200`: a status code as the message writes it, for the codes node:http sends. */
const STATUS_WORDS: readonly string[] = Array.from({ length: 1000 }, (_, n) => ` ${n}`);

/** ` 12.3 ms`: the message's duration for each count of tenths below 100 ms (`oneDecimal`). */
const TENTHS_WORDS: readonly string[] = Array.from(
  { length: 1000 },
  (_, n) => ` ${oneDecimal(n / 10)} ms`,
);

/** The message's duration: ` 12.3 ms`, or nothing when there is none. */
function durationWords(ms: number | undefined): string {
  if (ms === undefined) return '';
  const tenths = Math.round(ms * 10);
  return tenths >= 0 && tenths < 1000 ? (TENTHS_WORDS[tenths] as string) : ` ${oneDecimal(ms)} ms`;
}

/** The level of a status code (see `defaultLevelOf`), unless the controls gave the line one. */
function levelOfCode(code: number | undefined): Level {
  return (currentLine()?.level as Level | undefined) ?? levelOfStatus(code);
}

/**
 * A preset's line written straight, field after field, for one redaction policy: what the
 * generic renderer of json.ts writes for its map (a differential property test holds them
 * equal), without the per-field loop, calls through field objects and per-field try/catch.
 * What several fields share is read once: the URL (path, query and message), the status
 * (field, level and message) and the duration (field and message), and the method and path
 * are escaped once for their field and the message.
 *
 * Every piece joined to a line is one more string to make (a json line was made of 40), so
 * constant text is joined beforehand, in tables made once: the level with the keys around it,
 * a usual method with its key (and, for the message, with its space), a status code with its
 * key, the message's duration below 100 ms, the usual protocol version with its key. A string
 * field's closing quote is joined to whatever comes next (`open` says one is due). The time
 * always has a value, so every later field starts with its comma.
 *
 * The request target is tested once (`targetHint`): one that has no listed parameter, no `%`
 * and nothing to escape is written as it is, its path and query sliced from it, where testing
 * the path and the query apart took three tests.
 */
function presetLine(layout: PresetLayout): (policy: RedactPolicy) => OpenLine {
  const text = presetTextOf(layout);
  return (policy) => {
    const readers: PolicyReaders = {
      policy,
      hint: targetHint(policy, NEEDS_ESCAPE_CLASS),
      route: layout.route === undefined ? undefined : reader(policy, 'route'),
      id: reader(policy, 'request-id'),
      trace: reader(policy, 'trace-id'),
    };
    return (req, res, close) =>
      presetTail(text, readers, presetHead(text, readers, req, res), req, res, close);
  };
}

/** A preset's constant text, joined once per preset (see `presetLine`). */
interface PresetText {
  readonly layout: PresetLayout;
  /** The level's field with the keys around it, up to the message's opening quote. */
  readonly levels: Readonly<Record<Level, string>>;
  /** Each string field's key with its opening quote. */
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly address: string;
  readonly agent: string;
  readonly errorType: string;
  readonly errorMessage: string;
  /** What closes the message: its quote, then ecs's constant fields. */
  readonly afterText: string;
  /** A usual method: its word in the message, and the fields after the message up to its own. */
  readonly methods: readonly { readonly word: string; readonly field: string }[];
  /** A status code's field by code, and the same after a string field (its quote first). */
  readonly statusFields: readonly string[];
  readonly statusFieldsAfterString: readonly string[];
  /** The version 1.1 field: [string open before it] [the line ends with it]. */
  readonly version11: readonly string[];
  readonly traceOpen: string;
  readonly spanOpen: string;
  readonly flagsOpen: string;
}

function presetTextOf(layout: PresetLayout): PresetText {
  const levelAndKeys = (text: string) => `${layout.level}${text}${layout.message}"`;
  const quoted = (key: string) => `${key}"`;
  const afterText = `"${layout.afterMessage}`;
  const method = quoted(layout.method);
  const statusFields = STATUS_WORDS.map((word) => `${layout.status}${word.slice(1)}`);
  const { version } = layout;
  return {
    layout,
    levels: {
      trace: levelAndKeys(LEVEL_TEXT.trace),
      debug: levelAndKeys(LEVEL_TEXT.debug),
      info: levelAndKeys(LEVEL_TEXT.info),
      warn: levelAndKeys(LEVEL_TEXT.warn),
      error: levelAndKeys(LEVEL_TEXT.error),
      fatal: levelAndKeys(LEVEL_TEXT.fatal),
    },
    method,
    path: quoted(layout.path),
    query: quoted(layout.query),
    address: quoted(layout.address),
    agent: quoted(layout.agent),
    errorType: quoted(layout.errorType),
    errorMessage: quoted(layout.errorMessage),
    afterText,
    methods: PLAIN_METHODS.map((name) => ({
      word: `${name} `,
      field: `${afterText}${method}${name}"`,
    })),
    statusFields,
    statusFieldsAfterString: statusFields.map((field) => `"${field}`),
    version11: [`${version}"1.1"`, `"${version}"1.1"`, `${version}"1.1"}`, `"${version}"1.1"}`],
    traceOpen: `${layout.trace}"`,
    spanOpen: `"${layout.span}"`,
    flagsOpen: `"${layout.flags}"`,
  };
}

/** What a preset's line reads by one redaction policy, made once per policy. */
interface PolicyReaders {
  readonly policy: RedactPolicy;
  /** Whether a request target may hold something to mask or escape (`targetHint`). */
  readonly hint: RegExp;
  readonly route: TextFn | undefined;
  readonly id: TextFn;
  readonly trace: TextFn;
}

/**
 * The line up to the client's fields: time, level, message, method, path, query, status,
 * error, size and duration.
 */
function presetHead(
  text: PresetText,
  readers: PolicyReaders,
  req: LogRequest,
  res: LogResponse,
): string {
  const { layout } = text;
  const url = fullUrl(req);
  // Nothing to mask or escape in the path and the query: both written as they are.
  const plain = typeof url === 'string' && !readers.hint.test(url);
  let pathValue: string | undefined;
  let queryValue: string | undefined;
  if (plain && url.charCodeAt(0) === SLASH) {
    // An origin-form target (`/p?q`), as nearly every request has: one search for `?`.
    const at = url.indexOf('?');
    pathValue = at === -1 ? url : url.slice(0, at);
    queryValue = at === -1 || at === url.length - 1 ? undefined : url.slice(at + 1);
  } else {
    pathValue = pathOf(url);
    queryValue = plain ? plainQuery(url as string) : queryOf(url, readers.policy);
  }
  const pathInner = plain ? (pathValue as string) : encodeInner(`${pathValue}`);
  const m = req.method;
  const known = text.methods[plainMethod(m)];
  const methodInner = known === undefined ? encodeInner(`${m}`) : '';
  const code = statusCodeOf(res);
  const ms = lineDuration(req, res);
  const coded = typeof code === 'number';
  // The message (`GET /p 200 1.2 ms`), then the fields after it up to the method's.
  const methodWord = known === undefined ? `${methodInner} ` : known.word;
  const statusWord =
    code === undefined ? ' (no response)' : (coded && STATUS_WORDS[code]) || ` ${code}`;
  const methodField =
    known !== undefined
      ? known.field
      : typeof m === 'string' && m !== ''
        ? `${text.afterText}${text.method}${methodInner}"`
        : text.afterText;
  let line = `${layout.time}${isoNowJson()}${text.levels[levelOfCode(code)]}${methodWord}${pathInner}${statusWord}${durationWords(ms)}${methodField}`;
  let open = false;
  if (pathValue !== undefined && pathValue !== '') {
    line += `${text.path}${pathInner}`;
    open = true;
  }
  if (typeof queryValue === 'string' && queryValue !== '') {
    line += `${open ? `"${text.query}` : text.query}${plain ? queryValue : encodeInner(queryValue)}`;
    open = true;
  }
  if (code !== undefined) {
    line +=
      (coded && (open ? text.statusFieldsAfterString[code] : text.statusFields[code])) ||
      `${open ? '"' : ''}${layout.status}${code}`;
  } else if (open) {
    line += '"';
  }
  const failure = failureOf(req);
  if (failure !== undefined) {
    line = withString(line, text.errorType, errorTypeOf(failure));
    line = withString(line, text.errorMessage, errorMessageOf(failure));
  }
  line = withField(line, layout.size, sizeText(req, res));
  if (ms !== undefined) line = withField(line, layout.duration, layout.durationText(ms));
  return line;
}

/**
 * The line from the client on, after `from` (its head): address, user agent, version, route,
 * request id, trace; closed with `close`.
 */
function presetTail(
  text: PresetText,
  readers: PolicyReaders,
  from: string,
  req: LogRequest,
  res: LogResponse,
  close: string,
): string {
  const { layout, version11 } = text;
  let line = from;
  let open = false;
  const addressValue = remoteAddress(req, res);
  if (typeof addressValue === 'string' && addressValue !== '') {
    line += `${text.address}${encodeInner(addressValue)}`;
    open = true;
  }
  const agentValue = req.headers['user-agent'];
  if (typeof agentValue === 'string' && agentValue !== '') {
    line += `${open ? `"${text.agent}` : text.agent}${encodeInner(agentValue)}`;
    open = true;
  }
  const routeText = readers.route === undefined ? undefined : readers.route(req, res);
  const idText = readers.id(req, res);
  // A span's ids were checked as hex when read: written as they are.
  const ids = spanOf(req);
  const traceText = ids === undefined ? readers.trace(req, res) : undefined;
  const ends = routeText === undefined && idText === undefined && traceText === undefined;
  const { httpVersionMajor: major, httpVersionMinor: minor } = req;
  if (major === 1 && minor === 1) {
    if (ends && ids === undefined) {
      // The usual line's end, closed with its version when nothing is added after.
      return close === '}'
        ? line + version11[(open ? 1 : 0) + 2]
        : `${line}${version11[open ? 1 : 0]}${close}`;
    }
    line += version11[open ? 1 : 0];
  } else {
    line += `${open ? '"' : ''}${layout.version}"${layout.versionText(major, minor)}"`;
  }
  if (routeText !== undefined) line += (layout.route as string) + routeText;
  line = withField(line, layout.id, idText);
  if (ids === undefined) return `${withField(line, layout.trace, traceText)}${close}`;
  line += `${text.traceOpen}${ids.traceId}${text.spanOpen}${ids.spanId}`;
  return layout.flags === undefined
    ? `${line}"${close}`
    : `${line}${text.flagsOpen}${traceFlagsText(ids.traceFlags)}"${close}`;
}

const SLASH = 0x2f;

/** The query of a target that needs no masking, without its `?`; undefined when it has none. */
function plainQuery(url: string): string | undefined {
  const at = url.indexOf('?');
  return at === -1 || at === url.length - 1 ? undefined : url.slice(at + 1);
}

// The presets' layouts, derived from their field maps: each field's key is found by what the
// field reads, and the map's order must be the one the writer above writes in (checked here,
// when the module loads; the property test test/logger/json-preset-lines.test.ts holds the
// lines equal to the generic renderer's).

/** A field the preset writer writes at a key of the layout. */
type Role = Exclude<keyof PresetLayout, 'afterMessage' | 'versionText' | 'durationText'>;

/** What the preset writer writes each field as, by the field map's value. */
const ROLES = new Map<unknown, Role>([
  [':date[iso]', 'time'],
  [level, 'level'],
  [message, 'message'],
  [':method', 'method'],
  [':path', 'path'],
  [':query', 'query'],
  [':status', 'status'],
  [':error-type', 'errorType'],
  [':error-message', 'errorMessage'],
  [bodySize, 'size'],
  [':total-time', 'duration'],
  [durationNs, 'duration'],
  [':remote-addr', 'address'],
  [':user-agent', 'agent'],
  [protocolVersion, 'version'],
  [':http-version', 'version'],
  [':route', 'route'],
  [':request-id', 'id'],
  [':trace-id', 'trace'],
  [':span-id', 'span'],
  [':trace-flags', 'flags'],
]);

/** The order the writer writes in; `afterMessage` is the literal fields after the message. */
const WRITTEN_ORDER: readonly Role[] = [
  'time',
  'level',
  'message',
  'method',
  'path',
  'query',
  'status',
  'errorType',
  'errorMessage',
  'size',
  'duration',
  'address',
  'agent',
  'version',
  'route',
  'id',
  'trace',
  'span',
  'flags',
];

/** Fields a preset may leave out: ECS has no route and no field for the trace flags. */
const OPTIONAL: ReadonlySet<Role> = new Set(['route', 'flags']);

/** `,"key":` (`{"key":` for the first field): where a field's value is written. */
type FieldKeys = Partial<Record<Role, string>> & { afterMessage: string };

/** The keys of a preset's field map by role; throws when the writer cannot write the map. */
function keysOf(fields: JsonFields): FieldKeys {
  const keys: FieldKeys = { afterMessage: '' };
  const roles: Role[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const role = ROLES.get(value);
    const written = `${roles.length === 0 ? '{' : ','}${JSON.stringify(key)}:`;
    if (role !== undefined) {
      keys[role] = written;
      roles.push(role);
    } else if (typeof value === 'string' && !value.includes(':') && roles.at(-1) === 'message') {
      // A constant after the message (ECS's version), written with it.
      keys.afterMessage += `${written}${JSON.stringify(value)}`;
    } else {
      throw new Error(`the preset writer cannot write the field ${key}`);
    }
  }
  const expected = WRITTEN_ORDER.filter((role) => roles.includes(role));
  const missing = WRITTEN_ORDER.some((role) => !OPTIONAL.has(role) && !roles.includes(role));
  if (missing || expected.join() !== roles.join()) {
    throw new Error(`the preset writer writes its fields in another order: ${roles.join()}`);
  }
  return keys;
}

/** The fields known when a request arrives: no status, error, size, duration or route yet. */
const KNOWN_ON_ARRIVAL: ReadonlySet<Role> = new Set<Role>([
  'method',
  'path',
  'query',
  'address',
  'agent',
  'version',
  'id',
  'trace',
  'span',
  'flags',
]);

/**
 * A preset's arrival fields (the `start` option's line), derived from its field map: its time,
 * `level` and `message` in place of its own level and message, its constants (ECS's version),
 * then `phase` (the field that tells the line from a completion line), then every field of the
 * map known on arrival, under the map's keys, in its order.
 */
export function arrivalFieldsOf(
  preset: JsonFields,
  level: JsonFields[string],
  message: JsonFields[string],
  phase: readonly [key: string, value: string],
): JsonFields {
  const head: [string, JsonFields[string]][] = [];
  const known: [string, JsonFields[string]][] = [];
  for (const [key, value] of Object.entries(preset)) {
    const role = ROLES.get(value);
    if (role === 'level') head.push([key, level]);
    else if (role === 'message') head.push([key, message]);
    else if (role === undefined || role === 'time') head.push([key, value]);
    else if (KNOWN_ON_ARRIVAL.has(role)) known.push([key, value]);
  }
  return Object.freeze(Object.fromEntries([...head, phase, ...known]));
}

/** A preset's layout: its keys from its field map, and how it writes its version and duration. */
function layoutOf(
  fields: JsonFields,
  versionText: PresetLayout['versionText'],
  durationText: PresetLayout['durationText'],
): PresetLayout {
  const keys = keysOf(fields);
  return {
    ...(keys as Record<Role, string>),
    afterMessage: keys.afterMessage,
    route: keys.route,
    flags: keys.flags,
    versionText,
    durationText,
  };
}

declarePresetLine(
  json,
  // `:total-time` as the generic renderer writes it: three decimals, as a number.
  presetLine(layoutOf(json, otelVersion, (ms) => roundedText(ms, 3))),
);

declarePresetLine(
  ecs,
  presetLine(
    layoutOf(
      ecs,
      (major, minor) => `${major}.${minor}`,
      (ms) => {
        const ns = nanoseconds(ms);
        return Number.isFinite(ns) ? nanosecondsText(ns) : undefined;
      },
    ),
  ),
);

/** The field maps of the predefined JSON formats. */
export const jsonPresets: Readonly<{ json: JsonFields; ecs: JsonFields }> = Object.freeze({
  json,
  ecs,
});
