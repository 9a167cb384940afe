// The `json` and `ecs` predefined formats, built with `logger.json` from the same field maps
// users can start from (`logger.json.presets`).
//   json: flat keys named after OpenTelemetry's stable HTTP semantic conventions
//         (https://opentelemetry.io/docs/specs/semconv/http/http-spans/), plus time, level
//         and msg, which every log collector recognises.
//   ecs:  Elastic Common Schema (https://www.elastic.co/guide/en/ecs/current/), with the three
//         fields ecs-logging requires first: @timestamp, log.level, message.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenPart } from './compile.js';
import { declareFieldTokens, declarePresetLine } from './json.js';
import { builtinText, lineDuration, type TextFn } from './json-builtins.js';
import { encodeString } from './json-encode.js';
import type { RedactPolicy } from './redact.js';
import type { JsonFields } from './types.js';
import { urlPath } from './url-parts.js';

/** The ECS version whose field names the `ecs` preset uses. */
const ECS_VERSION = '8.11.0';

/**
 * The severity of a finished request: a 5xx is the server's failure, a 4xx the client's, and
 * a request that ended before any response was sent (the client went away) is worth a look.
 */
function levelOf(res: ServerResponse): 'info' | 'warn' | 'error' {
  if (!res.headersSent) return 'warn';
  const status = res.statusCode;
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

const LEVEL_TEXT = { info: '"info"', warn: '"warn"', error: '"error"' } as const;

const levelText: TextFn = (_req, res) => LEVEL_TEXT[levelOf(res)];

const level = declareFieldTokens((_tokens, _req, res) => levelOf(res), ['status'], levelText);

/** `12.3`, `4.0`: one decimal always shown, without the cost of `toFixed`. */
function oneDecimal(ms: number): string {
  const tenths = Math.round(ms * 10);
  const whole = Math.trunc(tenths / 10);
  return `${whole}.${Math.abs(tenths - whole * 10)}`;
}

/**
 * A short human line: `GET /users/42 200 12.3 ms`, read from the request itself. The query is
 * left out (it may hold secrets).
 */
function messageOf(req: IncomingMessage, res: ServerResponse): string {
  const status = res.headersSent ? String(res.statusCode) : '(no response)';
  const ms = lineDuration(req, res);
  const time = ms === undefined ? '' : ` ${oneDecimal(ms)} ms`;
  return `${req.method} ${urlPath(req)} ${status}${time}`;
}

const messageText: TextFn = (req, res) => encodeString(messageOf(req, res));

const message = declareFieldTokens(
  (_tokens, req, res) => messageOf(req, res),
  ['method', 'path', 'status', 'total-time'],
  messageText,
);

/** ECS's `event.duration` is in nanoseconds. */
const durationNs = declareFieldTokens(
  (_tokens, req, res) => {
    const ms = lineDuration(req, res);
    return ms === undefined ? undefined : Math.round(ms * 1e6);
  },
  ['total-time'],
);

const json: JsonFields = Object.freeze({
  time: ':date[iso]',
  level,
  msg: message,
  'http.request.method': ':method',
  'url.path': ':path',
  'url.query': ':query',
  'http.response.status_code': ':status',
  'http.response.body.size': ':res[content-length]',
  duration_ms: ':total-time',
  'client.address': ':remote-addr',
  'user_agent.original': ':user-agent',
  'network.protocol.version': ':http-version',
  'http.route': ':route',
  'http.request.id': ':request-id',
  trace_id: ':trace-id',
});

const ecs: JsonFields = Object.freeze({
  '@timestamp': ':date[iso]',
  'log.level': level,
  message,
  'ecs.version': ECS_VERSION,
  'http.request.method': ':method',
  'url.path': ':path',
  'url.query': ':query',
  'http.response.status_code': ':status',
  'http.response.body.bytes': ':res[content-length]',
  'event.duration': durationNs,
  'client.ip': ':remote-addr',
  'user_agent.original': ':user-agent',
  'http.version': ':http-version',
  'http.request.id': ':request-id',
  'trace.id': ':trace-id',
});

/** The direct reader of a built-in token the preset uses (it has one for every such token). */
function reader(policy: RedactPolicy, name: string, arg?: string): TextFn {
  const part: TokenPart = { name, arg };
  return builtinText(part, policy) as TextFn;
}

/**
 * The `json` preset's line written straight, field after field, for one redaction policy:
 * what the generic renderer of json.ts writes for this map (a differential property test
 * holds them equal), without its per-field loop, calls through field objects and
 * per-field try/catch. `time` always has a value, so every later field starts with its comma.
 */
function jsonLine(policy: RedactPolicy): TextFn {
  const time = reader(policy, 'date', 'iso');
  const method = reader(policy, 'method');
  const path = reader(policy, 'path');
  const query = reader(policy, 'query');
  const status = reader(policy, 'status');
  const size = reader(policy, 'res', 'content-length');
  const duration = reader(policy, 'total-time');
  const address = reader(policy, 'remote-addr');
  const agent = reader(policy, 'user-agent');
  const version = reader(policy, 'http-version');
  const route = reader(policy, 'route');
  const id = reader(policy, 'request-id');
  const trace = reader(policy, 'trace-id');
  return (req, res) => {
    let line = `{"time":${time(req, res)},"level":${levelText(req, res)},"msg":${messageText(req, res)}`;
    let text = method(req, res);
    if (text !== undefined) line += `,"http.request.method":${text}`;
    text = path(req, res);
    if (text !== undefined) line += `,"url.path":${text}`;
    text = query(req, res);
    if (text !== undefined) line += `,"url.query":${text}`;
    text = status(req, res);
    if (text !== undefined) line += `,"http.response.status_code":${text}`;
    text = size(req, res);
    if (text !== undefined) line += `,"http.response.body.size":${text}`;
    text = duration(req, res);
    if (text !== undefined) line += `,"duration_ms":${text}`;
    text = address(req, res);
    if (text !== undefined) line += `,"client.address":${text}`;
    text = agent(req, res);
    if (text !== undefined) line += `,"user_agent.original":${text}`;
    text = version(req, res);
    if (text !== undefined) line += `,"network.protocol.version":${text}`;
    text = route(req, res);
    if (text !== undefined) line += `,"http.route":${text}`;
    text = id(req, res);
    if (text !== undefined) line += `,"http.request.id":${text}`;
    text = trace(req, res);
    if (text !== undefined) line += `,"trace_id":${text}`;
    return `${line}}`;
  };
}

declarePresetLine(json, jsonLine);

/** The field maps of the predefined JSON formats. */
export const jsonPresets: Readonly<{ json: JsonFields; ecs: JsonFields }> = Object.freeze({
  json,
  ecs,
});
