// The arrival lines of the `start` option for the `json` and `ecs` formats: what is known when
// a request comes (no status, no duration, no route yet), with a field that tells them from the
// completion lines, which have none: `"event.phase":"start"` for `json`, and ECS's own
// `"event.type":"start"` for `ecs` (one of the values ECS defines for that field).

import { urlPath } from '../core/url-parts.js';
import type { LogRequest } from '../types.js';
import { encodeInner } from './encode.js';
import { declareFieldTokens, jsonFormat } from './format.js';
import { arrivalFieldsOf, jsonPresets } from './presets.js';

/** `GET /users started`: the query is left out, as in the completion line's message. */
function arrivalMessage(req: LogRequest): string {
  return `${req.method} ${urlPath(req)} started`;
}

const message = declareFieldTokens(
  (_tokens, req) => arrivalMessage(req),
  ['method', 'path'],
  (req) => `"${encodeInner(arrivalMessage(req))}"`,
);

const json = arrivalFieldsOf(jsonPresets.json, 'info', message, ['event.phase', 'start']);
const ecs = arrivalFieldsOf(jsonPresets.ecs, 'info', message, ['event.type', 'start']);

/** The default arrival formats of the JSON formats. */
export const arrivalJson = jsonFormat(json);
export const arrivalEcs = jsonFormat(ecs);
