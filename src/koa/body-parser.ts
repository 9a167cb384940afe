// httpware/koa's bodyParser: one middleware for json, forms, text and xml, with @koa/bodyparser
// 6's option names and defaults (and koa-bodyparser 4's `strict` and `onerror`), so that
// switching from either is one import. It reads nothing itself: each kind of body is one of
// httpware's parsers, resolved once here, and a body goes through the one read pipeline
// (limits counted after inflation, charsets, prototype keys, the rest drained after an
// error). Per request it only picks the parser, in co-body's callers' order: JSON (by
// `detectJSON` or a JSON type), then a form, then text, then xml (read as text).

import type { IncomingMessage } from 'node:http';
import { parseBytes } from '../parsers/bytes.js';
import {
  type CharsetPolicy,
  charsetExists,
  formCharsets,
  unicodeOnly,
} from '../parsers/charset.js';
import { jsonPipeline } from '../parsers/json.js';
import { compileTypeMatcher, parseContentType } from '../parsers/media-type.js';
import type { BodyFormat, Pipeline } from '../parsers/pipeline.js';
import { readBody } from '../parsers/read-body.js';
import { textPipeline } from '../parsers/text.js';
import { urlencodedPipeline } from '../parsers/urlencoded.js';
import { keepClosing } from './closing.js';
import type {
  BodyParserContext,
  BodyParserOptions,
  BodyType,
  KoaBodyParser,
  KoaContext,
  KoaNext,
} from './types.js';

const BODY_TYPES: readonly BodyType[] = ['json', 'form', 'text', 'xml'];

// The media types each kind reads by default: @koa/bodyparser 6's lists (koa-bodyparser 4's
// JSON list is the same without application/reports+json).
const DEFAULT_TYPES: Readonly<Record<BodyType, readonly string[]>> = {
  json: [
    'application/json',
    'application/json-patch+json',
    'application/vnd.api+json',
    'application/csp-report',
    'application/reports+json',
    'application/scim+json',
  ],
  form: ['application/x-www-form-urlencoded'],
  text: ['text/plain'],
  xml: ['text/xml', 'application/xml'],
};

// co-body's defaults, which both incumbents keep.
const DEFAULT_LIMITS: Readonly<Record<BodyType, string>> = {
  json: '1mb',
  form: '56kb',
  text: '1mb',
  xml: '1mb',
};

/** What a kind's parser returns here: the body, and the text it was read from (`rawBody`). */
interface Parsed {
  readonly body: unknown;
  readonly raw: string;
}

interface Reader {
  /** Whether a media type is one of this kind's (for JSON: unless `detectJSON` says so). */
  readonly matches: (mediaType: string | null) => boolean;
  readonly pipeline: Pipeline;
}

interface ResolvedBodyParser {
  /** The JSON parser, also there for `detectJSON` when json is not enabled. */
  readonly json: Reader | null;
  /** The parsers in the order a body's type is tried: json, form, text, xml. */
  readonly readers: readonly Reader[];
  readonly detectJSON: ((ctx: BodyParserContext) => unknown) | null;
  readonly onError: ((error: Error, ctx: BodyParserContext) => void) | null;
  readonly methods: ReadonlySet<string>;
  readonly patchNode: boolean;
  readonly enableRawChecking: boolean;
}

type Loose = { readonly [K in keyof BodyParserOptions]?: unknown };
type ParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };
type KoaRequest = { body?: unknown; rawBody?: unknown };
/** What the 499 for a request already closed writes (@koa/bodyparser 6's answer). */
type Answer = { status: number; body: unknown };

/**
 * Reads every option once: a bad one throws its TypeError here, at `app.use`. The caller's
 * object is only read.
 */
function resolveBodyParserOptions(options: BodyParserOptions | undefined): ResolvedBodyParser {
  const o: Loose = typeof options === 'object' && options !== null ? options : {};
  const enabled = enableTypesOption(o.enableTypes);
  const types = extendTypesOption(o.extendTypes);
  const detectJSON = functionOption<ResolvedBodyParser['detectJSON']>('detectJSON', o.detectJSON);
  const encoding = encodingOption(o.encoding);
  const strict = strictOption(o.jsonStrict, o.strict);
  const forms = queryStringOption(o.queryString);
  // koa-bodyparser 4 hands co-body a `qs` module of the application's; forms are read here.
  if ((options as { qs?: unknown } | undefined)?.qs !== undefined) {
    throw new TypeError('option qs is not supported: forms are read as qs 6 reads them');
  }
  // A kind's parser: its options, then a `type` that takes every request, since the kind
  // is chosen here, before the parser is called.
  const reader = (kind: BodyType, make: (limit: number) => Pipeline): Reader => ({
    matches: enabled.has(kind) ? compileTypeMatcher(types[kind]) : () => false,
    pipeline: keepingText(make(limitOption(`${kind}Limit`, o[`${kind}Limit` as const], kind))),
  });
  const textReader = (kind: BodyType) =>
    reader(kind, (limit) => textPipeline({ limit, type: anyRequest, defaultCharset: encoding }));
  // `detectJSON` reads JSON even where json is not enabled, as @koa/bodyparser 6 does.
  const json =
    enabled.has('json') || detectJSON !== null
      ? reader('json', (limit) =>
          jsonPipeline({
            limit,
            type: anyRequest,
            strict,
            defaultCharset: charsetFor('JSON', encoding, unicodeOnly),
            onProtoPoisoning: o.onProtoPoisoning as 'error',
          } as Parameters<typeof jsonPipeline>[0]),
        )
      : null;
  const form = enabled.has('form')
    ? reader('form', (limit) =>
        urlencodedPipeline(
          {
            limit,
            type: anyRequest,
            extended: true,
            depth: forms.depth,
            parameterLimit: forms.parameterLimit,
            defaultCharset: charsetFor('a form', encoding, formCharsets) as 'utf-8',
          },
          { allowDots: forms.allowDots, strictDepth: false },
        ),
      )
    : null;
  const text = enabled.has('text') ? textReader('text') : null;
  const xml = enabled.has('xml') ? textReader('xml') : null;
  return {
    json,
    readers: [json, form, text, xml].filter((kind): kind is Reader => kind !== null),
    detectJSON,
    onError: onErrorOption(o.onError, o.onerror),
    methods: parsedMethodsOption(o.parsedMethods),
    patchNode: o.patchNode === true,
    enableRawChecking: o.enableRawChecking === true,
  };
}

const anyRequest = (): boolean => true;

/**
 * A kind's parser that also returns the text it parsed: the incumbents' `ctx.request.rawBody`
 * is that string (co-body's `returnRawBody`).
 */
function keepingText(pipeline: Pipeline): Pipeline {
  const format = pipeline.format;
  const parse = format.parse;
  const keeping: BodyFormat = {
    charsets: format.charsets,
    parse: (text, charset): Parsed => ({ body: parse(text, charset), raw: text as string }),
  };
  return { ...pipeline, format: keeping };
}

function enableTypesOption(value: unknown): ReadonlySet<BodyType> {
  if (value === undefined) return new Set(['json', 'form']);
  if (!Array.isArray(value) || !value.every((kind) => BODY_TYPES.includes(kind))) {
    throw new TypeError(`option enableTypes must be a list of ${BODY_TYPES.join(', ')}`);
  }
  return new Set(value as BodyType[]);
}

/** Each kind's media types: its defaults, then the ones `extendTypes` adds (a string or a list). */
function extendTypesOption(value: unknown): Record<BodyType, readonly string[]> {
  const types = { ...DEFAULT_TYPES };
  if (value === undefined) return types;
  if (typeof value !== 'object' || value === null) {
    throw new TypeError('option extendTypes must be an object of media types by kind');
  }
  for (const [kind, added] of Object.entries(value)) {
    if (added === undefined) continue;
    const list: unknown[] = Array.isArray(added) ? added : [added];
    if (!BODY_TYPES.includes(kind as BodyType)) {
      throw new TypeError(`option extendTypes has no kind "${kind}" (${BODY_TYPES.join(', ')})`);
    }
    if (!list.every((type) => typeof type === 'string' && type !== '')) {
      throw new TypeError(`option extendTypes.${kind} must be media types (strings)`);
    }
    types[kind as BodyType] = [...types[kind as BodyType], ...(list as string[])];
  }
  return types;
}

function limitOption(name: string, value: unknown, kind: BodyType): number {
  const limit = parseBytes(value ?? DEFAULT_LIMITS[kind]);
  if (limit === null) throw new TypeError(`option ${name} "${String(value)}" is invalid`);
  return limit;
}

function functionOption<F>(name: string, value: unknown): F | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'function') throw new TypeError(`option ${name} must be a function`);
  return value as F;
}

function onErrorOption(onError: unknown, onerror: unknown): ResolvedBodyParser['onError'] {
  const handler = functionOption<ResolvedBodyParser['onError']>('onError', onError);
  const legacy = functionOption<ResolvedBodyParser['onError']>('onerror', onerror);
  if (handler !== null && legacy !== null && handler !== legacy) {
    throw new TypeError('options onError and onerror are one option: give one of them');
  }
  return handler ?? legacy;
}

/** `jsonStrict` (@koa/bodyparser 6) or `strict` (koa-bodyparser 4): false only when said. */
function strictOption(jsonStrict: unknown, strict: unknown): boolean {
  for (const [name, value] of [
    ['jsonStrict', jsonStrict],
    ['strict', strict],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`option ${name} must be a boolean`);
    }
  }
  if (jsonStrict !== undefined && strict !== undefined && jsonStrict !== strict) {
    throw new TypeError('options jsonStrict and strict are one option: give one of them');
  }
  return jsonStrict !== false && strict !== false;
}

/** The charset of a body whose Content-Type names none, as the charset library names it. */
function encodingOption(value: unknown): string {
  if (value === undefined) return 'utf-8';
  if (typeof value !== 'string' || !charsetExists(value)) {
    throw new TypeError(`option encoding "${String(value)}" is not a known charset`);
  }
  const charset = value.toLowerCase();
  return charset === 'utf8' ? 'utf-8' : charset;
}

/**
 * `encoding` for JSON and forms, which read only some charsets (JSON: UTF-8, 16 or 32, RFC
 * 8259; a form: UTF-8 or ISO-8859-1, what browsers send). Another is refused here rather than
 * with a 415 for every request that names no charset.
 */
function charsetFor(what: string, encoding: string, accepts: CharsetPolicy): string {
  if (accepts !== null && !accepts(encoding)) {
    throw new TypeError(`option encoding "${encoding}" cannot be used to read ${what}`);
  }
  return encoding;
}

const QUERY_STRING_KEYS = ['depth', 'parameterLimit', 'allowDots'];

/** co-body's qs options for forms: qs's defaults, and `allowDots` on (co-body's own). */
function queryStringOption(value: unknown): {
  depth: number;
  parameterLimit: number;
  allowDots: boolean;
} {
  const o = (value ?? {}) as { depth?: unknown; parameterLimit?: unknown; allowDots?: unknown };
  if (typeof o !== 'object') throw new TypeError('option queryString must be an object');
  for (const key of Object.keys(o)) {
    if (!QUERY_STRING_KEYS.includes(key)) {
      throw new TypeError(
        `option queryString.${key} is not supported (only ${QUERY_STRING_KEYS.join(', ')})`,
      );
    }
  }
  if (o.allowDots !== undefined && typeof o.allowDots !== 'boolean') {
    throw new TypeError('option queryString.allowDots must be a boolean');
  }
  // urlencoded's own checks refuse a depth or a parameterLimit that is not a number.
  return {
    depth: (o.depth ?? 5) as number,
    parameterLimit: (o.parameterLimit ?? 1000) as number,
    allowDots: o.allowDots !== false,
  };
}

function parsedMethodsOption(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set(['POST', 'PUT', 'PATCH']);
  if (!Array.isArray(value) || !value.every((method) => typeof method === 'string')) {
    throw new TypeError('option parsedMethods must be a list of methods');
  }
  return new Set(value.map((method: string) => method.toUpperCase()));
}

/** The parser for this request's body, or null when it is none of the enabled kinds'. */
function select(resolved: ResolvedBodyParser, ctx: KoaContext): Reader | null {
  const { json, readers, detectJSON } = resolved;
  if (json !== null && detectJSON?.(ctx as BodyParserContext)) return json;
  const mediaType = parseContentType(ctx.req.headers['content-type']).type;
  for (const reader of readers) if (reader.matches(mediaType)) return reader;
  return null;
}

/**
 * Reads the body into `ctx.request.body` (and `rawBody`, the text it was read from), as the
 * incumbents set them; `{}` when the body is none of the enabled kinds'. The body is also
 * put on `ctx.req.body`, as httpware/koa's other parsers put it, for the logger's
 * `body.fields`; `patchNode` adds `ctx.req.rawBody` and `{}` for a body not read.
 */
async function readInto(resolved: ResolvedBodyParser, ctx: KoaContext): Promise<void> {
  const req = ctx.req as ParsedRequest;
  const request = ctx.request as KoaRequest;
  const reader = select(resolved, ctx);
  if (reader === null) {
    request.body = {};
    if (resolved.patchNode) req.body = {};
    return;
  }
  const { options, format } = reader.pipeline;
  const { body, raw } = (await readBody(req, ctx.res, options, format)) as Parsed;
  request.body = body;
  req.body = body;
  if (request.rawBody === undefined) request.rawBody = raw;
  if (resolved.patchNode && req.rawBody === undefined) req.rawBody = raw;
}

export const bodyParser: KoaBodyParser = (options) => {
  const resolved = resolveBodyParserOptions(options);
  return async function httpwareBodyParser(ctx: KoaContext, next: KoaNext): Promise<void> {
    const req = ctx.req as ParsedRequest;
    const request = ctx.request as KoaRequest;
    if (
      !resolved.methods.has(req.method as string) ||
      request.body !== undefined ||
      (resolved.patchNode && req.body !== undefined) ||
      ctx.disableBodyParser
    ) {
      await next();
      return;
    }
    if (resolved.enableRawChecking && req.body !== undefined) {
      request.body = req.body;
      await next();
      return;
    }
    if (req.closed) {
      // @koa/bodyparser 6's answer to a client already gone: nobody reads it, but the log does.
      Object.assign(ctx as unknown as Answer, { status: 499, body: 'Request already closed' });
      return;
    }
    try {
      await readInto(resolved, ctx);
    } catch (err) {
      if (resolved.onError === null) throw keepClosing(err, ctx.res);
      resolved.onError(err as Error, ctx as BodyParserContext);
    }
    await next();
  };
};
