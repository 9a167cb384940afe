// Structured log lines: `logger.json(fields)` turns a map of field name -> value (a token
// string, a function, a literal or a nested map) into a format function that writes one JSON
// object per line. The map is checked and parsed once, when the format is made; each logger
// using it then builds its own list of field readers for its `redact` lists and stream mode,
// so a request costs one read and one encoding per field and nothing is looked up by name.
//
// Safety of a line: every string goes through `JSON.stringify` (quotes, backslashes, C0
// controls and lone surrogates escaped) and then has DEL, C1 controls, U+2028 and U+2029
// escaped too, so no byte sequence a client sends can end a line, forge one, or reach a
// terminal raw. A value nobody knows (no response yet, no such header) is left out, never
// written as "-". A field that throws is left out (one warning per field), never the line.

import { currentLine, inOwnLine } from '../core/line.js';
import { DEFAULT_POLICY, type RedactPolicy } from '../core/redact.js';
import { policyOfTokens, rawTokensFor } from '../core/redacting-registry.js';
import {
  isBuiltinDefinition,
  rawTokenRegistry,
  registryVersion,
  tokenRegistry,
} from '../core/token-registry.js';
import { builtinTokens } from '../core/tokens.js';
import { warnOncePerKey } from '../core/warnings.js';
import {
  declareTokenNames,
  type FormatPart,
  parseFormat,
  type TokenPart,
} from '../text/compile.js';
import type {
  FormatFn,
  JsonFieldFn,
  JsonFields,
  LogRequest,
  LogResponse,
  Tokens,
} from '../types.js';
import { type AddedFields, addedText, addFields } from './added-fields.js';
import {
  builtinJsonText,
  durationDigits,
  integerOf,
  isoNow,
  lineDuration,
  roundTo,
  SIZE_HEADERS,
  type TextFn,
} from './builtins.js';
import { encodeJsonValue, setKey } from './encode.js';

// The field map, checked and parsed once

type Node =
  | {
      readonly kind: 'literal';
      readonly key: string;
      readonly value: string | number | boolean | null;
    }
  | { readonly kind: 'token'; readonly key: string; readonly part: TokenPart }
  | { readonly kind: 'template'; readonly key: string; readonly parts: readonly FormatPart[] }
  | {
      readonly kind: 'function';
      readonly key: string;
      readonly fn: JsonFieldFn<LogRequest, LogResponse>;
    }
  | { readonly kind: 'object'; readonly key: string; readonly nodes: readonly Node[] };

/** Nesting deeper than this is a mistake (or a cycle); refused when the format is made. */
const MAX_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkTokens(path: string, parts: readonly FormatPart[]): void {
  for (const part of parts) {
    if (typeof part !== 'string' && !Object.hasOwn(rawTokenRegistry, part.name)) {
      throw new TypeError(`field "${path}" uses ":${part.name}", which is not a defined token`);
    }
  }
}

function parseValue(key: string, path: string, value: unknown, depth: number): Node | undefined {
  if (value === undefined) return undefined; // `{ ...preset, field: undefined }` removes it
  if (typeof value === 'function')
    return { kind: 'function', key, fn: value as JsonFieldFn<LogRequest, LogResponse> };
  if (typeof value === 'string') {
    const parts = parseFormat(value);
    checkTokens(path, parts);
    const [only] = parts;
    if (parts.length === 1 && typeof only === 'object') return { kind: 'token', key, part: only };
    if (parts.every((part) => typeof part === 'string')) return { kind: 'literal', key, value };
    return { kind: 'template', key, parts };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`field "${path}" must be a finite number`);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return { kind: 'literal', key, value };
  }
  if (isPlainObject(value)) {
    if (depth >= MAX_DEPTH) throw new TypeError(`field "${path}" is nested too deeply`);
    return { kind: 'object', key, nodes: parseFields(value, `${path}.`, depth + 1) };
  }
  throw new TypeError(
    `field "${path}" must be a token string, a function, a number, a boolean, null or an object`,
  );
}

function parseFields(fields: Record<string, unknown>, prefix: string, depth: number): Node[] {
  const nodes: Node[] = [];
  for (const key of Object.keys(fields)) {
    const node = parseValue(key, prefix + key, fields[key], depth);
    if (node !== undefined) nodes.push(node);
  }
  return nodes;
}

// Reading a field's value

/** Reads one field's value for a request; undefined leaves the field out. May throw. */
type Reader = (req: LogRequest, res: LogResponse) => unknown;

function toNumber(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && value !== '' ? n : undefined;
}

/** Built-in tokens that stand for numbers return text (for the text formats); JSON has types. */
const NUMERIC_TOKENS: Readonly<Record<string, (value: unknown) => number | undefined>> = {
  status: integerOf,
  pid: integerOf,
  'res-body-bytes': integerOf,
  'response-time': toNumber,
  'total-time': toNumber,
};

function conversionOf(part: TokenPart): ((value: unknown) => unknown) | undefined {
  // A token the application replaced keeps whatever type its function returns.
  if (!isBuiltinDefinition(part.name)) return undefined;
  if (part.name === 'req' || part.name === 'res') {
    return part.arg !== undefined && SIZE_HEADERS.has(part.arg.toLowerCase())
      ? integerOf
      : undefined;
  }
  return NUMERIC_TOKENS[part.name];
}

/** A value a token gives when it knows nothing: left out of a JSON line. */
function unknownValue(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function tokenReader(tokens: Tokens, part: TokenPart): Reader {
  const fn = (tokens as Record<string, Function>)[part.name] as Function;
  // The ISO date changes every millisecond, not every request: rendered once per millisecond.
  if (fn === builtinTokens.date && part.arg === 'iso') return isoNow;
  if (fn === builtinTokens['total-time']) {
    const digits = durationDigits(part.arg);
    return (req, res) => {
      const ms = lineDuration(req, res);
      return ms === undefined || Number.isNaN(digits) ? undefined : roundTo(ms, digits);
    };
  }
  const convert = conversionOf(part);
  const { arg } = part;
  const read: Reader =
    arg === undefined
      ? (req, res) => fn.call(tokens, req, res)
      : (req, res) => fn.call(tokens, req, res, arg);
  if (convert === undefined) {
    return (req, res) => {
      const value = read(req, res);
      return unknownValue(value) ? undefined : value;
    };
  }
  return (req, res) => convert(read(req, res));
}

function templateReader(tokens: Tokens, parts: readonly FormatPart[]): Reader {
  const readers = parts.map((part) =>
    typeof part === 'string' ? part : tokenReader(tokens, { name: part.name, arg: part.arg }),
  );
  // Text with tokens in it: written only when every token has a value, since a half-filled
  // text ("GET  200") would mislead and "-" is not written in JSON lines.
  return (req, res) => {
    let text = '';
    for (const reader of readers) {
      if (typeof reader === 'string') {
        text += reader;
      } else {
        const value = reader(req, res);
        if (value === undefined) return undefined;
        text += String(value);
      }
    }
    return text;
  };
}

// Rendering: a list of fields per logger

interface Field {
  readonly key: string;
  /** `"key":`, encoded once. */
  readonly prefix: string;
  /** `,"key":`, for every field after the first one written. */
  readonly after: string;
  /** The field as JSON text, or undefined to leave it out. May throw. */
  text(req: LogRequest, res: LogResponse): string | undefined;
  /** The field's value for an object-mode stream, or undefined to leave it out. May throw. */
  value(req: LogRequest, res: LogResponse): unknown;
}

function fieldFailed(path: string, err: unknown): void {
  warnOncePerKey(
    'HTTPWARE_LOGGER_FIELD',
    path,
    `logger: the JSON field "${path}" threw; it is left out`,
    err,
  );
}

class FieldList {
  constructor(
    private readonly fields: readonly Field[],
    private readonly path: string,
  ) {}

  /** `{...}` with every field that has a value; undefined when none has. */
  text(req: LogRequest, res: LogResponse): string | undefined {
    const out = this.inner(req, res);
    return out === '' ? undefined : `{${out}}`;
  }

  /** The fields that have a value, without the braces; '' when none has. */
  inner(req: LogRequest, res: LogResponse): string {
    let out = '';
    for (const field of this.fields) {
      let text: string | undefined;
      try {
        text = field.text(req, res);
      } catch (err) {
        fieldFailed(this.path + field.key, err);
        continue;
      }
      if (text === undefined) continue;
      // Two concatenations per field, the separator chosen by whether one was written.
      out += out === '' ? field.prefix : field.after;
      out += text;
    }
    return out;
  }

  value(req: LogRequest, res: LogResponse): Record<string, unknown> | undefined {
    let out: Record<string, unknown> | undefined;
    for (const field of this.fields) {
      let value: unknown;
      try {
        value = field.value(req, res);
      } catch (err) {
        fieldFailed(this.path + field.key, err);
        continue;
      }
      if (value === undefined) continue;
      out ??= {};
      setKey(out, field.key, value);
    }
    return out;
  }
}

function tokenText(node: Node & { kind: 'token' }, tokens: Tokens, policy: RedactPolicy): TextFn {
  const direct = isBuiltinDefinition(node.part.name)
    ? builtinJsonText(node.part, policy)
    : undefined;
  if (direct !== undefined) return direct;
  const read = tokenReader(tokens, node.part);
  return (req, res) => encodeJsonValue(read(req, res));
}

function buildField(node: Node, tokens: Tokens, policy: RedactPolicy, path: string): Field {
  const key = node.key;
  const prefix = `${encodeJsonValue(key)}:`;
  const after = `,${prefix}`;
  switch (node.kind) {
    case 'literal': {
      const text = encodeJsonValue(node.value);
      return { key, prefix, after, text: () => text, value: () => node.value };
    }
    case 'object': {
      const list = buildList(node.nodes, tokens, policy, `${path}${key}.`);
      return {
        key,
        prefix,
        after,
        text: (req, res) => list.text(req, res),
        value: (req, res) => list.value(req, res),
      };
    }
    case 'function': {
      const { fn } = node;
      const read: Reader = (req, res) => {
        const value = fn(tokens, req, res);
        return value === null ? undefined : value;
      };
      const text = fieldTexts.get(fn) ?? ((req, res) => encodeJsonValue(read(req, res)));
      return { key, prefix, after, text, value: read };
    }
    case 'token':
      return {
        key,
        prefix,
        after,
        text: tokenText(node, tokens, policy),
        value: tokenReader(tokens, node.part),
      };
    default: {
      const read = templateReader(tokens, node.parts);
      return {
        key,
        prefix,
        after,
        text: (req, res) => encodeJsonValue(read(req, res)),
        value: read,
      };
    }
  }
}

function buildList(
  nodes: readonly Node[],
  tokens: Tokens,
  policy: RedactPolicy,
  path: string,
): FieldList {
  return new FieldList(
    nodes.map((node) => buildField(node, tokens, policy, path)),
    path,
  );
}

/** Token names a node list reads, or undefined when a function field may read any. */
function tokenNamesOfNodes(nodes: readonly Node[]): string[] | undefined {
  const names: string[] = [];
  for (const node of nodes) {
    if (node.kind === 'token') names.push(node.part.name);
    else if (node.kind === 'template') {
      for (const part of node.parts) if (typeof part !== 'string') names.push(part.name);
    } else if (node.kind === 'object') {
      const inner = tokenNamesOfNodes(node.nodes);
      if (inner === undefined) return undefined;
      names.push(...inner);
    } else if (node.kind === 'function') {
      const declared = fieldTokenNames.get(node.fn);
      if (declared === undefined) return undefined;
      names.push(...declared);
    }
  }
  return names;
}

// The format functions

const fieldTokenNames = new WeakMap<Function, readonly string[]>();
/** For field functions of ours: a reader writing their JSON text directly. */
const fieldTexts = new WeakMap<Function, TextFn>();

/** Declares the tokens a field function of ours reads, so a logger records only those. */
export function declareFieldTokens(
  fn: JsonFieldFn<LogRequest, LogResponse>,
  names: readonly string[],
  text?: TextFn,
): JsonFieldFn<LogRequest, LogResponse> {
  fieldTokenNames.set(fn, names);
  if (text !== undefined) fieldTexts.set(fn, text);
  return fn;
}

/**
 * A predefined field map's line written straight: every field, then `close` (`}`, or '' to
 * leave the line open for the fields the logger adds).
 */
export type OpenLine = (req: LogRequest, res: LogResponse, close: string) => string;

/** Makes the line of a predefined field map for a redaction policy. */
type PresetLine = (policy: RedactPolicy) => OpenLine;

const presetLines = new WeakMap<object, PresetLine>();

/**
 * Declares a line writer for a predefined field map of ours, used instead of the field list
 * while every token the map reads is the built-in one and the stream takes text.
 */
export function declarePresetLine(fields: JsonFields, line: PresetLine): void {
  presetLines.set(fields, line);
}

interface JsonSpec {
  readonly nodes: readonly Node[];
  readonly tokenNames: readonly string[] | undefined;
  readonly presetLine: PresetLine | undefined;
}

const specs = new WeakMap<Function, JsonSpec>();

/** The preset's own line writer for `policy`, unless a token it reads has been replaced. */
function presetLineFor(spec: JsonSpec, policy: RedactPolicy): OpenLine | undefined {
  const { presetLine, tokenNames } = spec;
  if (presetLine === undefined || tokenNames === undefined) return undefined;
  return tokenNames.every(isBuiltinDefinition) ? presetLine(policy) : undefined;
}

/**
 * A JSON format for one redaction policy and stream mode, with the fields a logger adds after
 * its own (`added`, added-fields.ts). `newLine` false makes an object reader that never makes a
 * line of its own: it reads the one being made (its time and duration).
 */
function instantiate(
  spec: JsonSpec,
  policy: RedactPolicy,
  objectMode: boolean,
  newLine = true,
  added: AddedFields | undefined = undefined,
): FormatFn<LogRequest, LogResponse> {
  // Built again when `logger.token` has changed the registry, as compiled formats are.
  let list: FieldList | undefined;
  let line: OpenLine | undefined;
  let builtAt = -1;
  const current = (): FieldList => {
    if (list === undefined || builtAt !== registryVersion()) {
      list = buildList(spec.nodes, rawTokensFor(policy), policy, '');
      line = objectMode ? undefined : presetLineFor(spec, policy);
      builtAt = registryVersion();
    }
    return list;
  };
  const format: FormatFn<LogRequest, LogResponse> = objectMode
    ? function jsonObject(tokens, req, res): string | object | null | undefined {
        // A line of its own when called outside one (by the application, not a logger).
        if (newLine && currentLine() === undefined) return inOwnLine(jsonObject, tokens, req, res);
        const record = current().value(req, res) ?? {};
        if (added !== undefined) addFields(added, req, record, false);
        return record;
      }
    : function jsonLine(tokens, req, res): string | object | null | undefined {
        if (currentLine() === undefined) return inOwnLine(jsonLine, tokens, req, res);
        const fields = current();
        if (line !== undefined) {
          let text: string | undefined;
          try {
            text = line(req, res, added === undefined ? '}' : '');
          } catch {
            // The field list writes the same line, leaving out (and warning about) what threw.
          }
          if (text !== undefined) {
            return added === undefined ? text : `${text}${addedText(added, req)}}`;
          }
        }
        if (added === undefined) return fields.text(req, res) ?? '{}';
        const inner = fields.inner(req, res);
        const more = addedText(added, req);
        return `{${inner === '' ? more.slice(1) : inner + more}}`;
      };
  if (spec.tokenNames !== undefined) declareTokenNames(format, spec.tokenNames);
  return format;
}

/** Each spec's formats writing text lines, by redaction policy. */
const linesBySpec = new WeakMap<
  JsonSpec,
  WeakMap<RedactPolicy, FormatFn<LogRequest, LogResponse>>
>();

/** The spec's format writing text lines for `policy`, made once. */
function linesFor(spec: JsonSpec, policy: RedactPolicy): FormatFn<LogRequest, LogResponse> {
  let byPolicy = linesBySpec.get(spec);
  if (byPolicy === undefined) {
    byPolicy = new WeakMap();
    linesBySpec.set(spec, byPolicy);
  }
  let format = byPolicy.get(policy);
  if (format === undefined) {
    format = instantiate(spec, policy, false);
    byPolicy.set(policy, format);
  }
  return format;
}

/**
 * `logger.json(fields)`: a format function writing one JSON object per line. Called with the
 * tokens a logger hands its format (when the application's format function wraps it), it
 * masks what that logger's `redact` option masks.
 */
export function jsonFormat(fields: JsonFields): FormatFn<LogRequest, LogResponse> {
  if (!isPlainObject(fields)) throw new TypeError('argument fields must be an object');
  const nodes = parseFields(fields, '', 0);
  const spec: JsonSpec = {
    nodes,
    tokenNames: tokenNamesOfNodes(nodes),
    presetLine: presetLines.get(fields),
  };
  const lines = linesFor(spec, DEFAULT_POLICY);
  const format: FormatFn<LogRequest, LogResponse> = function jsonLines(tokens, req, res) {
    const policy = tokens === tokenRegistry ? DEFAULT_POLICY : policyOfTokens(tokens);
    return policy === undefined || policy === DEFAULT_POLICY
      ? lines(tokens, req, res)
      : linesFor(spec, policy)(tokens, req, res);
  };
  if (spec.tokenNames !== undefined) declareTokenNames(format, spec.tokenNames);
  specs.set(format, spec);
  return format;
}

/**
 * The fields of a field map as an object, for `policy`, read as part of the line being made
 * (line.ts): what an OpenTelemetry record is made of.
 */
export function lineFields(
  fields: JsonFields,
  policy: RedactPolicy,
): FormatFn<LogRequest, LogResponse> {
  const nodes = parseFields(fields, '', 0);
  const spec: JsonSpec = { nodes, tokenNames: tokenNamesOfNodes(nodes), presetLine: undefined };
  return instantiate(spec, policy, true, false);
}

/** Whether `format` was made by `logger.json` (the predefined `json` and `ecs` formats are). */
export function isJsonFormat(format: FormatFn<LogRequest, LogResponse>): boolean {
  return specs.has(format);
}

/**
 * The format a logger runs: a JSON format made for that logger's redaction lists and stream
 * mode; any other format as it is.
 */
export function formatForLogger(
  format: FormatFn<LogRequest, LogResponse>,
  policy: RedactPolicy,
  objectMode: boolean,
  added?: AddedFields,
): FormatFn<LogRequest, LogResponse> {
  const spec = specs.get(format);
  if (spec === undefined) return format;
  if (added !== undefined) return instantiate(spec, policy, objectMode, true, added);
  return objectMode ? instantiate(spec, policy, true) : linesFor(spec, policy);
}
