// The fields a logger adds after its format's own, defined once for its json and ecs lines and
// its OpenTelemetry records: the request body's fields (option `body`), then what the
// production controls said of the line (`sampling.rate`, `slow`: core/line.ts). They are
// fields of the record a format writes, never text spliced into a finished line.

import { SAMPLE_RATE } from '../core/controls.js';
import { currentLine } from '../core/line.js';
import type { LogRequest } from '../types.js';
import { setKey } from './encode.js';

/** What a logger adds to its JSON lines. */
export interface AddedFields {
  /** The body fields' JSON text for a request (option `body`); undefined when off. */
  readonly body: ((req: LogRequest) => string | undefined) | undefined;
  /** ECS's own field holds the body fields as a string: their JSON text. */
  readonly ecs: boolean;
  /** Whether the logger has production controls, whose line may carry a rate and `slow`. */
  readonly controls: boolean;
}

/** The key of the body fields: an object on a `json` line, JSON text on a record. */
export const BODY_KEY = 'http.request.body.fields';
/** ECS's field for the body (a text field). */
const ECS_BODY_KEY = 'http.request.body.content';

/** The added fields as JSON text, each after a comma (`,"key":value`); '' when none has one. */
export function addedText(added: AddedFields, req: LogRequest): string {
  let out = '';
  const body = added.body?.(req);
  if (body !== undefined) {
    out += added.ecs ? `,"${ECS_BODY_KEY}":${JSON.stringify(body)}` : `,"${BODY_KEY}":${body}`;
  }
  if (added.controls) {
    const line = currentLine();
    if (line?.rate !== undefined) out += `,"${SAMPLE_RATE}":${line.rate}`;
    if (line?.slow) out += ',"slow":true';
  }
  return out;
}

/**
 * The added fields set on `record`: a line's object (the body fields as an object, or ECS's
 * text) or, `flat`, a record's attributes (the body fields as their JSON text).
 */
export function addFields(
  added: AddedFields,
  req: LogRequest,
  record: Record<string, unknown>,
  flat: boolean,
): void {
  const body = added.body?.(req);
  if (body !== undefined) {
    // JSON.parse of our own text: a `__proto__` key in it stays an own key.
    if (added.ecs) setKey(record, ECS_BODY_KEY, body);
    else setKey(record, BODY_KEY, flat ? body : JSON.parse(body));
  }
  if (added.controls) {
    const line = currentLine();
    if (line?.rate !== undefined) record[SAMPLE_RATE] = line.rate;
    if (line?.slow) record.slow = true;
  }
}
