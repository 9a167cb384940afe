// parsers.json: JSON bodies (RFC 8259), with body-parser's strict mode and error messages, and
// prototype-poisoning protection, also for the application's own `parse`.

import { createError, type ErrorDetails, HttpwareError, HttpwareSyntaxError } from '../errors.js';
import { ON_BUN } from '../runtime.js';
import { unicodeOnly } from './charset.js';
import { definePipeline } from './define.js';
import { resolveJsonOptions, resolveOptions } from './options.js';
import type { Pipeline } from './pipeline.js';
import type { JsonOptions, JsonParser, ProtoPoisoningAction } from './types.js';

// RFC 8259 sec 2: ws = *( %x20 / %x09 / %x0A / %x0D ); the first character after it.
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;

const JSON_TYPE = 'application/json';

export function jsonPipeline(options?: JsonOptions): Pipeline {
  const common = resolveOptions(options, JSON_TYPE);
  const { reviver, parse: custom, strict, onProtoPoisoning } = resolveJsonOptions(options);

  const parse = (body: string | Buffer, charset: string | null, bytes?: Buffer): unknown => {
    const text = body as string;
    // An empty body is a common client mistake; body-parser reads it as `{}`.
    if (text.length === 0) return {};
    if (strict && text[0] !== '{' && text[0] !== '[') {
      const first = FIRST_NON_WHITESPACE.exec(text)?.[1] || undefined;
      if (first !== '{' && first !== '[') throw strictViolation(text, first);
    }
    if (custom !== null) return parseWith(custom, text, onProtoPoisoning);
    // Prototype keys are only looked for in a body that can hold one: a cheap scan first.
    const guarded =
      onProtoPoisoning !== 'ignore' &&
      (SCANS_BYTES && bytes !== undefined && charset === 'utf-8'
        ? bytesMayHoldPrototypeKey(bytes, text)
        : mayHoldPrototypeKey(text));
    let value: unknown;
    try {
      value = JSON.parse(
        text,
        guarded && reviver !== undefined ? guardReviver(reviver, text, onProtoPoisoning) : reviver,
      );
    } catch (err) {
      throw parseFailure(err, text);
    }
    return guarded && reviver === undefined ? guardPrototype(value, text, onProtoPoisoning) : value;
  };

  return { options: common, format: { charsets: unicodeOnly, parse } };
}

export const json: JsonParser = definePipeline<JsonParser>('json', jsonPipeline);

/**
 * What JSON.parse (or the application's `parse`) threw, as the error of the request. A reviver's
 * or a `parse`'s own error is stripped down to its message, as body-parser does with a reviver's:
 * a 400 entity.parse.failed whatever `status` or `type` it carried.
 */
function parseFailure(err: unknown, text: string): HttpwareError | HttpwareSyntaxError {
  if (err instanceof SyntaxError) return new HttpwareSyntaxError(err.message, text, err);
  if (err instanceof HttpwareError && err.type === 'entity.prototype.forbidden') return err;
  return new HttpwareError(
    'entity.parse.failed',
    { body: text },
    { message: err instanceof Error ? err.message : String(err), cause: err },
  );
}

/**
 * The `parse` option. Nothing is known of how it builds its objects, so its result is always
 * walked (unless `'ignore'`), whatever the text looks like (a parser may read escapes JSON has
 * not, such as JSON5's `\x5f`): see guardParsed.
 */
function parseWith(
  custom: (text: string) => unknown,
  text: string,
  action: ProtoPoisoningAction,
): unknown {
  let value: unknown;
  try {
    value = custom(text);
  } catch (err) {
    throw parseFailure(err, text);
  }
  return action === 'ignore' ? value : guardParsed(value, text, action);
}

/**
 * The error JSON.parse itself gives for the first character of a non-object body, so strict
 * mode reports exactly what the platform would ("Unexpected token 't', "true" is not valid
 * JSON"): the text from that character on is masked with `#`, parsed, and unmasked.
 */
function strictViolation(text: string, first: string | undefined): HttpwareSyntaxError {
  const index = first === undefined ? -1 : text.indexOf(first);
  const masked = index === -1 ? '' : text.slice(0, index) + '#'.repeat(text.length - index);
  try {
    JSON.parse(masked);
  } catch (err) {
    const message = (err as Error).message.replace(/#+/g, (run) =>
      text.substring(index, index + run.length),
    );
    return new HttpwareSyntaxError(message, text, err);
  }
  return new HttpwareSyntaxError('strict violation', text);
}

// Keys that can reach Object.prototype once application code merges the body into another
// object: `__proto__`, and `constructor` when its value has its own `prototype` (prototypeKey).
// A body that holds either holds the name `__proto__` or `prototype`, spelled literally or with
// \u escapes of their characters (all in U+005F..U+007A), so those are what is looked for, not
// `constructor`. Both names hold `proto`: V8 finds that word in a 1 MB body in 0.1 ms, 2.5
// times sooner than it runs a pattern for either name (or the former `__proto__|constructor`);
// JavaScriptCore (Bun) is the other way round.
const PROTOTYPE_NAME = ON_BUN ? /__proto__|prototype/ : /proto/;
const ESCAPED_NAME_CHAR = /\\u00(?:5[fF]|[67][0-9a-fA-F])/;

/** Cheap test first: a body that cannot hold such a key is never walked. */
export function mayHoldPrototypeKey(text: string): boolean {
  if (PROTOTYPE_NAME.test(text)) return true;
  return text.includes('\\u') && ESCAPED_NAME_CHAR.test(text);
}

/**
 * Whether Bun looks for the names in the UTF-8 bytes a body was decoded from rather than in its
 * text: their ASCII is the text's (no other byte of UTF-8, valid or not, decodes to ASCII), and
 * Bun's native search of bytes takes a tenth of a regular expression's run over the text (a 1 MB
 * body: 50 µs against 380). V8's search of the text is as fast as Node's of bytes, and Deno's
 * `Buffer` searches in JavaScript.
 */
const SCANS_BYTES = ON_BUN;

/** mayHoldPrototypeKey, the names looked for in the bytes of a UTF-8 text (SCANS_BYTES). */
export function bytesMayHoldPrototypeKey(bytes: Buffer, text: string): boolean {
  // Strings, not Buffers made at load: loading reads no global (test/package/jsdom-load).
  if (bytes.includes('proto')) return true;
  return bytes.includes('\\u') && ESCAPED_NAME_CHAR.test(text);
}

const hasOwn = Object.prototype.hasOwnProperty;

type PrototypeKey = ErrorDetails['entity.prototype.forbidden']['key'];
type Reviver = NonNullable<JsonOptions['reviver']>;

/** Which prototype key `key: value` is, if it is one. */
function prototypeKey(key: string, value: unknown): PrototypeKey | null {
  if (key === '__proto__') return '__proto__';
  if (key !== 'constructor' || typeof value !== 'object' || value === null) return null;
  return hasOwn.call(value, 'prototype') ? 'constructor.prototype' : null;
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor'] as const;

function forbidden(text: string, key: PrototypeKey): HttpwareError {
  return createError('entity.prototype.forbidden', { body: text, key });
}

/**
 * Without a reviver the parsed value is plain JSON data, walked once it is parsed. Iterative:
 * a deeply nested body cannot overflow the stack.
 */
function guardPrototype(value: unknown, text: string, action: ProtoPoisoningAction): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    for (const key of PROTOTYPE_KEYS) {
      const found = hasOwn.call(node, key) ? prototypeKey(key, node[key]) : null;
      if (found === null) continue;
      if (action === 'error') throw forbidden(text, found);
      Reflect.deleteProperty(node, key);
    }
    for (const key in node) {
      const child = node[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return value;
}

/**
 * What the application's `parse` returned, walked as guardPrototype walks JSON.parse's, but
 * with what a parser of unknown make can return in mind:
 * - objects reached twice, or cycles, are walked once;
 * - an instance of a class (a prototype with its own `constructor`: a Date, a BigNumber, a
 *   LosslessNumber) is the parser's own object, neither walked nor changed;
 * - a prototype that is data rather than a class's is what `object[key] = value` makes of a
 *   `__proto__` key, in a parser that assigns keys so: the key's value became the object's
 *   prototype. It counts as a `__proto__` key: refused, or (`'remove'`) the object gets back
 *   the plain prototype.
 */
function guardParsed(value: unknown, text: string, action: ProtoPoisoningAction): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const seen = new Set<object>([value]);
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    const proto: unknown = Object.getPrototypeOf(node);
    if (proto !== null && proto !== Object.prototype && proto !== Array.prototype) {
      if (hasOwn.call(proto, 'constructor')) continue;
      if (action === 'error') throw forbidden(text, '__proto__');
      Object.setPrototypeOf(node, Array.isArray(node) ? Array.prototype : Object.prototype);
    }
    for (const key of PROTOTYPE_KEYS) {
      const found = hasOwn.call(node, key) ? prototypeKey(key, node[key]) : null;
      if (found === null) continue;
      if (action === 'error') throw forbidden(text, found);
      Reflect.deleteProperty(node, key);
    }
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (typeof child === 'object' && child !== null && !seen.has(child)) {
        seen.add(child);
        pending.push(child);
      }
    }
  }
  return value;
}

/**
 * With a reviver the result may hold the application's own objects (shared, even cyclic: a
 * reviver can return anything), which must be neither walked nor changed. So the keys are
 * checked as JSON.parse hands each one over, before the application's reviver sees it; a key
 * to remove is dropped by returning undefined, which makes JSON.parse delete it.
 */
function guardReviver(reviver: Reviver, text: string, action: ProtoPoisoningAction): Reviver {
  return function (this: unknown, key: string, value: unknown, ...context: unknown[]) {
    const found = prototypeKey(key, value);
    if (found === null) return Reflect.apply(reviver, this, [key, value, ...context]);
    if (action === 'error') throw forbidden(text, found);
    return undefined;
  };
}
