// TypeScript consumers of the packed package, type-checked in the scratch project.
//
// The @types snippets are code as a user of `@types/morgan` and `@types/body-parser` writes it
// (our own code, in the usual import styles). Each is compiled twice: importing 'morgan' and
// 'body-parser', which proves it is valid @types code, and importing httpware's entries, which
// proves a project switches by changing the import source only.

/** The import styles of @types users; `express` is imported in the same style. */
export type ImportStyle = 'require' | 'default' | 'star';

function header(style: ImportStyle, name: string, source: string): string {
  if (style === 'require') {
    return `import ${name} = require('${source}');\nimport express = require('express');\n`;
  }
  if (style === 'default')
    return `import ${name} from '${source}';\nimport express from 'express';\n`;
  return `import * as ${name} from '${source}';\nimport * as express from 'express';\n`;
}

/** Code written against @types/morgan, importing the logger from `source`. */
export function morganSnippet(style: ImportStyle, source: string): string {
  return `${header(style, 'morgan', source)}import type { IncomingMessage, ServerResponse } from 'node:http';

type Req = express.Request;
type Res = express.Response;

const stream: morgan.StreamOptions = {
  write: (line: string) => {
    process.stdout.write(line);
  },
};
const options: morgan.Options<Req, Res> = {
  stream,
  immediate: false,
  skip: (_req: Req, res: Res) => res.statusCode < 400,
};
const jsonLine: morgan.FormatFn<Req, Res> = (tokens, req, res) =>
  JSON.stringify({
    method: tokens['method']?.(req, res),
    status: Number(tokens['status']?.(req, res)),
    length: tokens['res']?.(req, res, 'content-length'),
  });
const idToken: morgan.TokenCallbackFn<Req, Res> = (req) => req.get('x-request-id');
const plainLine = (tokens: morgan.TokenIndexer, req: IncomingMessage, res: ServerResponse) =>
  [tokens['method']?.(req, res), tokens['url']?.(req, res)].join(' ');

const chained: morgan.Morgan<Req, Res> = morgan.token('id', idToken);
morgan.token<Req, Res>('route', (req) => req.route?.path);
morgan.format('app', ':id :method :url :status');
morgan.format<Req, Res>('app-json', jsonLine);
const compiled: morgan.FormatFn = morgan.compile(':method :url');

const app = express();
app.use(morgan('combined', options));
app.use(morgan('app', { stream }));
app.use(morgan(jsonLine, { stream, buffer: false }));
app.use(morgan(plainLine));
const handler = morgan('tiny');
export function run(req: Req, res: Res, done: (err?: Error) => void): void {
  handler(req, res, done);
}
void [chained, compiled];
`;
}

/** Code written against @types/body-parser, importing the parsers from `source`. */
export function bodyParserSnippet(style: ImportStyle, source: string): string {
  return `${header(style, 'bodyParser', source)}import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextHandleFunction } from 'connect';

function checkSignature(
  req: IncomingMessage,
  _res: ServerResponse,
  buf: Buffer,
  encoding: string,
): void {
  if (req.headers['x-signature'] !== buf.toString(encoding === 'utf-8' ? 'hex' : 'base64')) {
    throw new Error('bad signature');
  }
}

const base: bodyParser.Options = {
  inflate: true,
  limit: '1mb',
  type: ['application/octet-stream', 'application/pdf'],
  verify: checkSignature,
};
const jsonOptions: bodyParser.OptionsJson = {
  strict: true,
  limit: 100_000,
  type: (req: IncomingMessage) => req.headers['content-type'] === 'application/vnd.api+json',
  reviver: (key: string, value: any) => (key === 'at' ? new Date(value) : value),
  verify(req, res, buf, encoding) {
    checkSignature(req, res, buf, encoding);
  },
};
const textOptions: bodyParser.OptionsText = { defaultCharset: 'utf-8', type: 'text/*' };
const formOptions: bodyParser.OptionsUrlencoded = {
  extended: true,
  parameterLimit: 100,
  verify: (_req, _res, buf: Buffer, encoding: string) => {
    if (buf.length === 0 || encoding === '') throw new Error('empty');
  },
};
const parsers: bodyParser.BodyParser = bodyParser;
const json: NextHandleFunction = parsers.json(jsonOptions);

const app = express();
app.use(json);
app.use(bodyParser.raw(base));
app.use(bodyParser.text(textOptions));
app.use(bodyParser.urlencoded(formOptions));
app.use('/api', bodyParser.json(), bodyParser.urlencoded({ extended: false }));
app.post('/', (req: express.Request, res: express.Response) => {
  res.json(req.body);
});
`;
}

/** ESM only: the named imports morgan and body-parser have in Node's ESM. */
export function esmNamedSnippet(logger: string, parsers: string): string {
  return `import { compile, format, token } from '${logger}';
import { json, raw, text, urlencoded } from '${parsers}';
import type * as morgan from '${logger}';
import type * as bodyParser from '${parsers}';

const stream: morgan.StreamOptions = { write: () => undefined };
const options: bodyParser.OptionsJson = { strict: false };
void [stream, options];

token('host', (req) => req.headers.host);
format('hosts', ':host :url');
const line = compile(':method');
const middleware = [json(), raw(), text(), urlencoded({ extended: true })];
void [line, middleware];
`;
}

/**
 * httpware's own promises to TypeScript users, in one module system (`express` imported by
 * `expressImport`): type-only names beside the default import, `req.id` and `req.rawBody` on
 * Express's Request, `instanceof HttpwareError` narrowing, and misuse refused.
 */
export function httpwareSnippet(expressImport: string): string {
  return `${expressImport}
import logger, { type FormatFn, type LoggerOptions, type StreamOptions } from 'httpware/logger';
import parsers, { type JsonOptions, type OptionsJson } from 'httpware/parsers';
import * as root from 'httpware';
import { HttpwareError, type ErrorType } from 'httpware';

const format: FormatFn<express.Request, express.Response> = (tokens, req, res) =>
  [req.id, tokens.method(req, res)].join(' ');
const stream: StreamOptions = { write: () => true };
const loggerOptions: LoggerOptions = { stream };
const jsonOptions: JsonOptions & OptionsJson = { rawBody: true, limit: '10kb' };

const app = express();
app.use(logger.requestId(), logger(format, loggerOptions), parsers.json(jsonOptions));
app.post('/hook', (req, res) => {
  const id: string | undefined = req.id;
  const raw: Buffer | undefined = req.rawBody;
  // @ts-expect-error rawBody is a Buffer, not a string
  const text: string | undefined = req.rawBody;
  // @ts-expect-error the request id is a string
  const numeric: number | undefined = req.id;
  res.json({ id, size: raw?.length, text, numeric });
});
app.use((err: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (!(err instanceof HttpwareError)) return next(err);
  const type: ErrorType = err.type;
  const status: number = err.status;
  if (err.type === 'entity.too.large') {
    const limit: number = err.limit;
    void limit;
  }
  // @ts-expect-error not a type httpware raises
  if (err.type === 'entity.unknown') return next(err);
  // @ts-expect-error status is a number
  const statusText: string = err.status;
  res.status(status).json({ type, statusText });
});

// @ts-expect-error verify's body is a Buffer
parsers.json({ verify: (_req, _res, buf: string) => void buf });
// @ts-expect-error a raw body has no charset: encoding may be null
parsers.raw({ verify: (_req, _res, _buf, encoding: number) => void encoding });
// @ts-expect-error createError is not part of the package
void root.createError;
// @ts-expect-error HttpwareSyntaxError is not a value of the package
void root.HttpwareSyntaxError;
// @ts-expect-error a format is a string or a function
logger(42);
`;
}

/** A program that imports only the logger: it has `req.id` and not `req.rawBody`. */
export const loggerOnlySnippet = `import express from 'express';
import logger from 'httpware/logger';

const app = express();
app.use(logger.requestId());
app.get('/', (req, res) => {
  // @ts-expect-error rawBody comes with httpware/parsers, which this program does not import
  const raw = req.rawBody;
  res.send(req.id ?? String(raw));
});
`;

/** The consumer project's compiler options: strict, exact optional properties, node16. */
export const node16Options = {
  module: 'node16',
  moduleResolution: 'node16',
  target: 'ES2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: false,
  types: ['node'],
};

/** A bundler project (`moduleResolution: bundler`) with esModuleInterop turned off. */
export const bundlerOptions = {
  module: 'esnext',
  moduleResolution: 'bundler',
  target: 'ES2022',
  strict: true,
  esModuleInterop: false,
  allowSyntheticDefaultImports: false,
  noEmit: true,
  skipLibCheck: false,
  types: ['node'],
};

/** A classic CommonJS project: node10 resolution and no `esModuleInterop`, for `import * as`. */
export const classicOptions = {
  module: 'commonjs',
  moduleResolution: 'node',
  target: 'ES2020',
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  types: ['node'],
};

/**
 * Validated bodies and the promise form, in one module system: the type of `req.body` after a
 * parser with a schema (Express infers it from the middleware), and of what `read` resolves to,
 * equal to the schema's output for zod, valibot and (ESM only: arktype ships no CommonJS)
 * arktype; `read`'s plain types; misuse refused.
 */
export function schemaSnippet(system: 'cjs' | 'esm'): string {
  const imports =
    system === 'cjs'
      ? `import express = require('express');
import parsers = require('httpware/parsers');
import { z } from 'zod';
import * as v from 'valibot';
type StandardSchemaV1<I = unknown, O = I> = parsers.StandardSchemaV1<I, O>;
type InferOutput<S extends StandardSchemaV1> = parsers.StandardSchemaV1.InferOutput<S>;
type ValidationIssue = parsers.ValidationIssue;
const { json, text, raw, urlencoded } = parsers;
`
      : `import express from 'express';
import parsers, { json, raw, text, urlencoded, type StandardSchemaV1 } from 'httpware/parsers';
import type { ValidationIssue } from 'httpware';
import { type } from 'arktype';
import { z } from 'zod';
import * as v from 'valibot';
type InferOutput<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;
`;
  const arktype =
    system === 'esm'
      ? `
const Point = type({ x: 'number', y: 'number', 'label?': 'string' });
type PointOut = typeof Point.infer;
app.put('/point', json({ schema: Point }), (req, res) => {
  const same: Equal<typeof req.body, PointOut> = true;
  res.json(same);
});
export async function readPoint(req: IncomingMessage): Promise<PointOut> {
  const point = await text.read(req, { schema: type('string.json.parse').pipe(Point) });
  const same: Equal<typeof point, PointOut> = true;
  void same;
  return point;
}
`
      : '';
  return `${imports}import http from 'node:http';
import type { IncomingMessage } from 'node:http';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const User = z.object({ name: z.string(), role: z.enum(['admin', 'user']).default('user') });
type UserOut = z.output<typeof User>;
const Form = v.object({ age: v.pipe(v.string(), v.transform(Number)) });
type FormOut = v.InferOutput<typeof Form>;

const app = express();
app.post('/users', json({ schema: User, limit: '10kb' }), (req, res) => {
  const same: Equal<typeof req.body, UserOut> = true;
  res.json(same);
});
app.post('/form', urlencoded({ schema: Form, extended: false }), (req, res) => {
  const same: Equal<typeof req.body, FormOut> = true;
  res.json(same);
});
app.post('/any', json(), (req, res) => {
  // Without a schema, req.body keeps Express's own type.
  res.json(req.body.anything);
});
${arktype}
http.createServer(async (req, res) => {
  const user = await json.read(req, { schema: User, res });
  const form = await parsers.urlencoded.read(req, { schema: Form });
  const plain = await json.read(req, { limit: '1kb' });
  const words = await text.read(req, { defaultCharset: 'utf-8' });
  const bytes = await raw.read(req, { verify: async (_req, response, buf) => void [response?.statusCode, buf] });
  const checks: [
    Equal<typeof user, UserOut>,
    Equal<typeof user, InferOutput<typeof User>>,
    Equal<typeof form, FormOut>,
    Equal<typeof plain, unknown>,
    Equal<typeof words, string>,
    Equal<typeof bytes, Buffer>,
  ] = [true, true, true, true, true, true];
  const schema: StandardSchemaV1<unknown, UserOut> = User;
  res.end(JSON.stringify([checks, schema['~standard'].vendor]));
});

// A Web Request (a fetch handler's): the same read, the same inferred types, verify given the
// Request; errors answered as problem documents, from a Web handler and from Express.
export async function onFetch(request: Request): Promise<Response> {
  try {
    const user = await json.read(request, { schema: User });
    const bytes = await raw.read(request);
    const words = await text.read(request, {
      verify: (req, res, buf, encoding) => void [req.url, res, buf.byteLength, encoding.length],
    });
    const checks: [Equal<typeof user, UserOut>, Equal<typeof bytes, Buffer>, Equal<typeof words, string>] = [
      true,
      true,
      true,
    ];
    return Response.json(checks);
  } catch (err) {
    return parsers.toResponse(err);
  }
}
app.use(parsers.problemHandler());
export async function webMisuse(request: Request, res: http.ServerResponse) {
  // @ts-expect-error a Web handler answers with its Response: no res option
  await json.read(request, { res });
  // @ts-expect-error the schema's output, not any
  const role: number = (await json.read(request, { schema: User })).role;
  return role;
}

export function report(issues: readonly ValidationIssue[]): string[] {
  return issues.map((issue) => \`\${issue.path.join('.')}: \${issue.message}\`);
}

json({ parse: (body: string) => JSON.parse(body), verify: async () => {}, verifyTimeout: 500 });
// @ts-expect-error a schema is a Standard Schema
json({ schema: { validate: () => true } });
// @ts-expect-error parse takes the text
json({ parse: (body: Buffer) => body });
export async function misuse(req: IncomingMessage) {
  // @ts-expect-error text.read resolves to a string
  const n: number = await text.read(req);
  // @ts-expect-error the schema's output, not any
  const role: number = (await json.read(req, { schema: User })).role;
  return [n, role];
}
`;
}

/**
 * A Koa application (@types/koa) using httpware/koa: the middleware go to `app.use` as they
 * are, `ctx.request.body` and `ctx.request.rawBody` are typed by the entry's augmentation of
 * Koa's Request, and the logger takes the Node logger's options.
 */
export function koaSnippet(system: 'cjs' | 'esm'): string {
  const imports =
    system === 'cjs'
      ? "import Koa = require('koa');\nimport koa = require('httpware/koa');\n"
      : "import Koa from 'koa';\nimport koa, { json, type KoaMiddleware } from 'httpware/koa';\n";
  const named = system === 'cjs' ? 'koa.json' : 'json';
  const middlewareType = system === 'cjs' ? 'koa.KoaMiddleware' : 'KoaMiddleware';
  return `${imports}
const app = new Koa();
app.use(koa.logger('combined', { skip: (_req, res) => res.statusCode < 400 }));
app.use(koa.logger('json', { stream: { write: (line: string) => void line } }));
const parse: ${middlewareType} = ${named}({ limit: '1mb', rawBody: true });
app.use(parse);
app.use(koa.urlencoded({ extended: true }));
app.use(koa.text());
app.use(koa.raw({ type: 'application/octet-stream' }));
app.use(async (ctx) => {
  const raw: string | Buffer | undefined = ctx.request.rawBody;
  const body = ctx.request.body;
  const name = typeof body === 'object' && body !== null && 'name' in body ? body.name : null;
  ctx.body = { name, bytes: raw?.length ?? 0 };
});
// @ts-expect-error a logger needs a format
koa.logger();
// @ts-expect-error limit is a number or a size string
koa.json({ limit: true });
app.use(async (ctx) => {
  // @ts-expect-error rawBody may be absent, or a Buffer (rawBody: true), not only a string
  const text: string = ctx.request.rawBody;
  ctx.body = text;
});
app.use(koa.bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', onError: (_e, ctx) => ctx.throw(422) }));
// @ts-expect-error yaml is no kind of body bodyParser reads
koa.bodyParser({ enableTypes: ['yaml'] });
export { app };
`;
}
