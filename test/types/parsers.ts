// The parsers' public types, checked by `tsc` (each `@ts-expect-error` fails the type check if
// the misuse compiles). Not a test file: nothing here is run.
import http from 'node:http';
import connect from 'connect';
import express5 from 'express';
import express4 from 'express4';
import * as v from 'valibot';
import {
  type AnyHttpwareError,
  type ErrorType,
  HttpwareError,
  isHttpwareError,
  type JsonOptions,
  type ParserMiddleware,
  type Parsers,
  parsers,
  type RequestWithBody,
  type RequestWithValidatedBody,
  type Untrusted,
} from '../../src/index.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_: T) => {};

interface Login {
  user: string;
  password: string;
}

function isLogin(body: unknown): body is Login {
  const b = body as Untrusted<Login> | undefined;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.user === 'string' &&
    typeof b.password === 'string'
  );
}

/** Names a group of type checks. Nothing in this file runs: `tsc` (npm run typecheck) checks it. */
const types = (_name: string, _checks: () => void): void => {};

types('public types', () => {
  types('middleware is accepted by Express 4, Express 5, Connect and node:http', () => {
    const e4 = express4();
    e4.use(parsers.json());
    e4.post('/', parsers.urlencoded({ extended: true }), (_req, res) => res.end());
    const e5 = express5();
    e5.use(parsers.text({ type: 'text/*' }));
    e5.post('/', parsers.raw(), (_req, res) => {
      res.end();
    });
    const app = connect();
    app.use(parsers.json());
    app.use('/forms', parsers.urlencoded());
    const json: ParserMiddleware = parsers.json();
    const server = http.createServer((req, res) => {
      json(req, res, (err) => {
        res.statusCode = err ? 400 : 200;
        res.end();
      });
    });
    server.close();
  });

  types('err.type narrows to the kind and its extra properties', () => {
    const handle = (err: unknown): number | string | undefined => {
      if (!isHttpwareError(err)) return undefined;
      expectType<Equal<typeof err.type, ErrorType>>(true);
      switch (err.type) {
        case 'entity.too.large':
          return err.limit;
        case 'charset.unsupported':
          return err.charset;
        case 'entity.parse.failed':
          return err.body;
        case 'request.aborted':
          return err.received;
        default:
          return err.status;
      }
    };
    const narrowed = (e: AnyHttpwareError) => (e.type === 'encoding.unsupported' ? e.encoding : '');
    void [handle, narrowed];
  });

  types('instanceof HttpwareError narrows like isHttpwareError', () => {
    const handle = (err: unknown): number | undefined => {
      if (!(err instanceof HttpwareError)) return undefined;
      expectType<Equal<typeof err, AnyHttpwareError>>(true);
      expectType<Equal<typeof err.status, number>>(true);
      return err.type === 'entity.too.large' ? err.limit : err.status;
    };
    void handle;
  });

  types('verify sees a charset for the text parsers and may see null for raw', () => {
    parsers.json({
      verify: (_req, _res, _buf, encoding) => expectType<Equal<typeof encoding, string>>(true),
    });
    parsers.urlencoded({ verify: (_req, _res, _buf, encoding) => encoding.toUpperCase() });
    parsers.raw({
      verify: (_req, _res, _buf, encoding) =>
        expectType<Equal<typeof encoding, string | null>>(true),
    });
    // A verify typed as @types/body-parser types it fits every parser, raw included.
    const typedForStrings = (
      _req: http.IncomingMessage,
      _res: http.ServerResponse,
      _buf: Buffer,
      encoding: string,
    ) => void encoding;
    parsers.raw({ verify: typedForStrings });
    parsers.text({ verify: typedForStrings });
    // @ts-expect-error: the body is a Buffer
    parsers.json({ verify: (_req, _res, buf: string) => void buf });
  });

  types('the typed body is untrusted until validated', () => {
    const handler = (req: RequestWithBody<Login>) => {
      // @ts-expect-error: an untrusted property is unknown, not a string
      const user: string | undefined = req.body?.user;
      void user;
      if (isLogin(req.body)) {
        const login: Login = req.body;
        return login.user;
      }
      return undefined;
    };
    const validated = (req: RequestWithValidatedBody<Login>): string => req.body.password;
    expectType<Equal<Untrusted<Login>, { readonly user?: unknown; readonly password?: unknown }>>(
      true,
    );
    void [handler, validated];
  });

  types('options are checked', () => {
    const options: JsonOptions = { limit: '1mb', strict: false, onProtoPoisoning: 'remove' };
    // @ts-expect-error: not an action
    const bad: JsonOptions = { onProtoPoisoning: 'strip' };
    void bad;
    const messages: JsonOptions = { issueMessages: 'validator' };
    // @ts-expect-error: issueMessages is 'generic' or 'validator'
    const badMessages: JsonOptions = { issueMessages: 'verbatim' };
    void [messages, badMessages];
    // @ts-expect-error: urlencoded's defaultCharset is utf-8 or iso-8859-1
    const badForm = () => parsers.urlencoded({ defaultCharset: 'koi8-r' as const });
    const all: Parsers = parsers;
    void [badForm, all.json(options)];
  });

  types('reader resolves its options once and reads Web Requests', () => {
    const User = v.object({ name: v.string() });
    const readUser = parsers.json.reader({ schema: User, limit: '10kb' });
    const readJson = parsers.json.reader({ limit: '1mb' });
    const readBytes = parsers.raw.reader();
    const readText = parsers.text.reader<Request>({
      verify(req, res, buf, encoding) {
        expectType<Equal<typeof req, Request>>(true);
        expectType<Equal<typeof res, undefined>>(true);
        expectType<Equal<typeof buf, Buffer>>(true);
        expectType<Equal<typeof encoding, string>>(true);
      },
    });
    const onFetch = async (request: Request): Promise<Response> => {
      const user = await readUser(request);
      expectType<Equal<typeof user, { name: string }>>(true);
      expectType<Equal<Awaited<ReturnType<typeof readJson>>, unknown>>(true);
      expectType<Equal<Awaited<ReturnType<typeof readBytes>>, Buffer>>(true);
      expectType<Equal<Awaited<ReturnType<typeof readText>>, string>>(true);
      // @ts-expect-error: a reader takes no options per request
      await readJson(request, { limit: '1kb' });
      // @ts-expect-error: `res` is a Node request's: a reader reads Web Requests
      parsers.json.reader({ res: undefined as unknown as import('node:http').ServerResponse });
      return Response.json(user);
    };
    void onFetch;
  });

  types('read takes a Web Request as it takes an IncomingMessage', () => {
    const User = v.object({ name: v.string() });
    const onFetch = async (request: Request): Promise<Response> => {
      try {
        const user = await parsers.json.read(request, { schema: User, limit: '10kb' });
        expectType<Equal<typeof user, { name: string }>>(true);
        const bytes = await parsers.raw.read(request);
        expectType<Equal<typeof bytes, Buffer>>(true);
        const form = await parsers.urlencoded.read(request, { extended: true });
        expectType<Equal<typeof form, unknown>>(true);
        await parsers.text.read(request, {
          verify(req, res, buf, encoding) {
            expectType<Equal<typeof req, Request>>(true);
            expectType<Equal<typeof res, undefined>>(true);
            expectType<Equal<typeof buf, Buffer>>(true);
            expectType<Equal<typeof encoding, string>>(true);
          },
        });
        await parsers.text.read(request, {
          type: (req) => req.headers.get('content-type')?.startsWith('text/'),
        });
        await parsers.raw.read(request, {
          verify(_req, _res, _buf, encoding) {
            expectType<Equal<typeof encoding, null>>(true);
          },
        });
        return Response.json(user);
      } catch (err) {
        return parsers.toResponse(err);
      }
    };
    // Any object shaped like a Web Request: each runtime's own Request type fits.
    const minimal = {
      headers: new Headers(),
      body: null,
      bodyUsed: false,
    };
    void parsers.json.read(minimal);
    // @ts-expect-error a Web Request has no response to give
    void parsers.json.read(new Request('http://x/'), { res: {} as http.ServerResponse });
    // @ts-expect-error not a request of either kind
    void parsers.json.read({ headers: {} });
    void onFetch;
  });

  types('toResponse and problemHandler', () => {
    const response: Response = parsers.toResponse(new Error('x'));
    const e5 = express5();
    e5.use(parsers.problemHandler());
    const e4 = express4();
    e4.use(parsers.problemHandler());
    connect().use(parsers.problemHandler());
    void response;
  });

  types("legacyEmptyBody is every parser's middleware option, not read's", () => {
    const e4 = express4();
    e4.use(parsers.json({ legacyEmptyBody: true }), parsers.raw({ legacyEmptyBody: false }));
    e4.use(parsers.text({ legacyEmptyBody: true }), parsers.urlencoded({ legacyEmptyBody: true }));
    // @ts-expect-error: a boolean
    const notBoolean = () => parsers.json({ legacyEmptyBody: 'true' });
    // @ts-expect-error: read leaves req.body alone
    const onRead = (req: http.IncomingMessage) => parsers.json.read(req, { legacyEmptyBody: true });
    const onTextRead = (req: http.IncomingMessage) =>
      // @ts-expect-error: read leaves req.body alone
      parsers.text.read(req, { legacyEmptyBody: true });
    // With a schema, `false` keeps the validating middleware (`true` is refused at creation).
    const schema = v.object({ a: v.string() });
    express5().post('/', parsers.json({ schema, legacyEmptyBody: false }), (req, res) => {
      res.send(req.body.a.toUpperCase());
    });
    void [notBoolean, onRead, onTextRead];
  });
});
