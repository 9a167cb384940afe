// The `schema` option's report: a Standard Schema's issues -> the `issues` of a 422
// `entity.validation.failed`, which the client is shown (it is a 4xx, `expose` is true) and
// which ends up in logs. So the report is bounded, and it never carries the rejected values:
//
// - The path is made of keys only. A Standard Schema path segment may be an object holding its
//   key (valibot's also hold the input and the value): only the key is kept; a symbol becomes
//   its description. Paths are cut at MAX_PATH keys, each key at MAX_KEY characters (keys of a
//   record schema are the client's own).
// - The message is the validator's own, with the value it rejected cut out. Some validators
//   print that value: zod 3's enums (`received 'x'`), valibot (`but received "x"`) and arktype
//   (`(was "x")`, JSON for objects); zod 4 does not. The value at the issue's path is looked
//   up in the validated input, and wherever the message prints it, quoted or bare, it is
//   replaced with `…`. A number or a string of a word or more is cut where it stands alone; a
//   shorter string only where it is quoted, so that a value "a" leaves "a string" alone.
//   Then the message is cut at MAX_MESSAGE characters.
// - At most MAX_ISSUES issues are kept: a 1 MB array of wrong items can make a million.

import { createError, type HttpwareErrorOf, type ValidationIssue } from '../errors.js';
import type { StandardSchemaV1 } from './types.js';

const MAX_ISSUES = 100;
const MAX_MESSAGE = 200;
const MAX_PATH = 32;
const MAX_KEY = 64;
/** A string this long or longer is cut where it stands alone in a message, not only quoted. */
const MIN_BARE = 4;
const CUT = '…';

const hasOwn = Object.prototype.hasOwnProperty;

/** The 422 for a schema's failure result, `input` being the value that was validated. */
export function validationFailed(
  issues: ReadonlyArray<StandardSchemaV1.Issue>,
  input: unknown,
): HttpwareErrorOf<'entity.validation.failed'> {
  const kept: ValidationIssue[] = [];
  const count = Array.isArray(issues) ? issues.length : 0;
  // Many issues can share one value (the body itself, say): it is printed once.
  const prints = new Map<unknown, Printed[]>();
  for (let i = 0; i < count && i < MAX_ISSUES; i++) kept.push(report(issues[i], input, prints));
  const first = kept[0];
  let message = 'invalid request body';
  if (first !== undefined) {
    const where = first.path.length === 0 ? 'body' : first.path.join('.');
    message += `: ${where}: ${first.message}`;
    if (count > 1) message += ` (and ${count - 1} more)`;
  }
  return createError('entity.validation.failed', { issues: kept }, { message });
}

function report(
  issue: StandardSchemaV1.Issue | undefined,
  input: unknown,
  prints: Map<unknown, Printed[]>,
): ValidationIssue {
  const segments = Array.isArray(issue?.path) ? issue.path : [];
  const path: (string | number)[] = [];
  let value = input;
  for (const segment of segments) {
    const key = keyOf(segment);
    value = child(value, key);
    if (path.length < MAX_PATH) path.push(bounded(key));
  }
  let forms = prints.get(value);
  if (forms === undefined) {
    forms = printed(value);
    prints.set(value, forms);
  }
  const message = cutValue(String(issue?.message ?? ''), forms);
  return {
    path,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}${CUT}` : message,
  };
}

function keyOf(segment: unknown): PropertyKey {
  const key =
    typeof segment === 'object' && segment !== null
      ? (segment as StandardSchemaV1.PathSegment).key
      : segment;
  return typeof key === 'number' || typeof key === 'symbol' ? key : String(key);
}

function bounded(key: PropertyKey): string | number {
  if (typeof key === 'number') return key;
  const text = typeof key === 'symbol' ? (key.description ?? '') : key;
  return text.length > MAX_KEY ? `${text.slice(0, MAX_KEY - 1)}${CUT}` : text;
}

/** The input's own property `key`, or undefined (a getter or a prototype is never reached). */
function child(value: unknown, key: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null || !hasOwn.call(value, key)) return undefined;
  return Object.getOwnPropertyDescriptor(value, key)?.value;
}

/** `message` without the value, printed in any of `forms`. */
function cutValue(message: string, forms: readonly Printed[]): string {
  let cut = message;
  for (const form of forms)
    if (form.text.length > 0 && cut.includes(form.text)) cut = cutOut(cut, form);
  return cut;
}

interface Printed {
  readonly text: string;
  /** Cut where it stands alone too, not only between quotes. */
  readonly bare: boolean;
}

/** How validators print a value: as it is (quoted or not), or as JSON. Longest first. */
function printed(value: unknown): Printed[] {
  const found: Printed[] = [];
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // A BigInt or a cycle (from a json `parse` of the application's): printed otherwise.
  }
  if (typeof json === 'string' && json.length > 2) found.push({ text: json, bare: true });
  if (typeof value === 'string') {
    found.push({ text: value, bare: value.length >= MIN_BARE });
  } else if (
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    value === null
  ) {
    found.push({ text: String(value), bare: true });
  }
  return found.sort((a, b) => b.text.length - a.text.length);
}

const QUOTES = `"'\``;

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_]/u.test(char);
}

/**
 * `message` with every occurrence of the printed value replaced: between a pair of the same
 * quotes (the quotes go too), or, for a `bare` form, anywhere no letter or digit touches it.
 */
function cutOut(message: string, { text, bare }: Printed): string {
  let out = '';
  let from = 0;
  for (let at = message.indexOf(text); at !== -1; at = message.indexOf(text, at + 1)) {
    if (at < from) continue;
    const before = message[at - 1];
    const after = message[at + text.length];
    const quoted = before !== undefined && QUOTES.includes(before) && after === before;
    const alone =
      !(isWordChar(text[0]) && isWordChar(before)) &&
      !(isWordChar(text[text.length - 1]) && isWordChar(after));
    if (!quoted && !(bare && alone)) continue;
    out += message.slice(from, quoted ? at - 1 : at) + CUT;
    from = at + text.length + (quoted ? 1 : 0);
  }
  return out + message.slice(from);
}
