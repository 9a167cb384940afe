// The arrival lines of the `start` option for the `json` and `ecs` formats: what is known when
// a request comes (no status, no duration, no route yet), with a field that tells them from the
// completion lines, which have none: `"event.phase":"start"` for `json`, and ECS's own
// `"event.type":"start"` for `ecs` (one of the values ECS defines for that field).

import { urlPath } from '../core/url-parts.js';
import type { JsonFields, LogRequest } from '../types.js';
import { encodeInner } from './encode.js';
import { declareFieldTokens, jsonFormat } from './format.js';
import { jsonPresets } from './presets.js';

/** `GET /users started`: the query is left out, as in the completion line's message. */
function arrivalMessage(req: LogRequest): string {
  return `${req.method} ${urlPath(req)} started`;
}

const message = declareFieldTokens(
  (_tokens, req) => arrivalMessage(req),
  ['method', 'path'],
  (req) => `"${encodeInner(arrivalMessage(req))}"`,
);

/** The fields of a preset known on arrival, under the preset's own keys and readers. */
function known(preset: JsonFields, keys: readonly string[]): JsonFields {
  return Object.fromEntries(keys.map((key) => [key, preset[key]]));
}

const json: JsonFields = Object.freeze({
  time: ':date[iso]',
  level: 'info',
  msg: message,
  'event.phase': 'start',
  ...known(jsonPresets.json, [
    'http.request.method',
    'url.path',
    'url.query',
    'client.address',
    'user_agent.original',
    'network.protocol.version',
    'http.request.id',
    'trace_id',
    'span_id',
    'trace_flags',
  ]),
});

const ecs: JsonFields = Object.freeze({
  '@timestamp': ':date[iso]',
  'log.level': 'info',
  message,
  'ecs.version': jsonPresets.ecs['ecs.version'],
  'event.type': 'start',
  ...known(jsonPresets.ecs, [
    'http.request.method',
    'url.path',
    'url.query',
    'client.ip',
    'user_agent.original',
    'http.version',
    'http.request.id',
    'trace.id',
    'span.id',
  ]),
});

/** The default arrival formats of the JSON formats. */
export const arrivalJson = jsonFormat(json);
export const arrivalEcs = jsonFormat(ecs);
