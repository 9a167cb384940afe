// The `json` and `ecs` predefined formats, built with `logger.json` from the same field maps
// users can start from (`logger.json.presets`).
//   json: flat keys named after OpenTelemetry's stable HTTP semantic conventions
//         (https://opentelemetry.io/docs/specs/semconv/http/http-spans/), plus time, level
//         and msg, which every log collector recognises.
//   ecs:  Elastic Common Schema (https://www.elastic.co/guide/en/ecs/current/), with the three
//         fields ecs-logging requires first: @timestamp, log.level, message.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { declareFieldTokens } from './json.js';
import { lineDuration } from './json-builtins.js';
import { encodeString } from './json-encode.js';
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

const level = declareFieldTokens(
  (_tokens, _req, res) => levelOf(res),
  ['status'],
  (_req, res) => LEVEL_TEXT[levelOf(res)],
);

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

const message = declareFieldTokens(
  (_tokens, req, res) => messageOf(req, res),
  ['method', 'path', 'status', 'total-time'],
  (req, res) => encodeString(messageOf(req, res)),
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

/** The field maps of the predefined JSON formats. */
export const jsonPresets: Readonly<{ json: JsonFields; ecs: JsonFields }> = Object.freeze({
  json,
  ecs,
});
