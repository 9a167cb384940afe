// The public types, checked by `tsc`: the middleware fits wherever Express 4, Express 5,
// Connect and node:http take one, and misuse is a type error (each `@ts-expect-error` fails
// the type check if the misuse compiles). Not a test file: nothing here is run.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import connect from 'connect';
import express5, { type Request, type Response } from 'express';
import express4 from 'express4';
import { requestId as rootRequestId } from '../../src/index.js';
import { logger } from '../../src/logger/index.js';
import type {
  BodyFieldsOptions,
  FormatFn,
  JsonFieldFn,
  JsonFields,
  LogExclusions,
  Logger,
  LoggerMiddleware,
  LoggerOptions,
  LogLevel,
  LogStream,
  MetricsOptions,
  OtelMeter,
  RedactOptions,
  RequestIdMiddleware,
  RequestIdOptions,
  SampleOptions,
  StatusMatch,
  TokenFn,
  Tokens,
} from '../../src/logger/types.js';

/** Names a group of type checks. Nothing in this file runs: `tsc` (npm run typecheck) checks it. */
const types = (_name: string, _checks: () => void): void => {};

types('public types', () => {
  types('the middleware is accepted by Express 4, Express 5, Connect and node:http', () => {
    const app4 = express4();
    app4.use(logger('dev'));
    app4.get('/', logger('tiny'), (_req, res) => {
      res.send('ok');
    });

    const app5 = express5();
    app5.use(logger('combined', { skip: (_req, res) => res.statusCode < 400 }));
    app5.use(
      logger((tokens, req: Request, res: Response) => `${req.ip} ${tokens.method(req, res)}`),
    );
    app5.use(express5.Router().use(logger(':method :url')));

    const app = connect();
    app.use(logger('short', { immediate: true }));
    app.use('/api', logger('common'));

    const log = logger('tiny');
    const server = http.createServer((req, res) => {
      log(req, res, (err) => {
        res.statusCode = err ? 500 : 200;
        res.end();
      });
    });

    const typed: Logger = logger;
    const middleware: LoggerMiddleware = log;
    void [server, typed, middleware];
  });

  types('tokens, formats, options and streams have usable types', () => {
    const id: TokenFn<Request, Response> = (req) => req.get('x-request-id');
    const withArg: TokenFn = (req, _res, name) =>
      name ? req.headers[name]?.toString() : undefined;
    const format: FormatFn = (tokens: Tokens, req, res) =>
      [tokens.method(req, res), tokens['custom-id']?.(req, res), tokens.status(req, res)].join(' ');
    const objectFormat: FormatFn = (tokens, req, res) => ({ url: tokens.url(req, res) });
    const stream: LogStream = process.stdout;
    const fileLike: LogStream = { write: (_line: string) => true };
    const options: LoggerOptions<Request, Response> = {
      stream,
      immediate: false,
      skip: (req) => req.path === '/health',
    };
    logger.token('custom-id', id).token('with-arg', withArg).format('mine', format);
    logger.format('objects', objectFormat);
    logger<Request, Response>('mine', options);
    logger(':method', { stream: fileLike, skip: false });
    const compiled: FormatFn = logger.compile(':method');
    void compiled;
  });

  types('JSON formats, request ids and redaction have usable types', () => {
    const route: JsonFieldFn<Request, Response> = (_tokens, req) => req.route?.path;
    const fields: JsonFields<Request, Response> = {
      ...logger.json.presets.json,
      service: 'api',
      replicas: 3,
      canary: false,
      owner: null,
      removed: undefined,
      status: ':status',
      route,
      nested: { agent: ':user-agent', id: (tokens, req, res) => tokens['request-id'](req, res) },
    };
    const format: FormatFn<Request, Response> = logger.json(fields);
    const redact: RedactOptions = { headers: ['x-session'], query: ['otp'] };
    const replaced: RedactOptions = {
      query: (names) => names.filter((name) => name !== 'code'),
      headers: () => [...logger.redactDefaults.headers, 'x-session'],
    };
    const idOptions: RequestIdOptions = { header: 'x-correlation-id', trust: false };
    const ids: RequestIdMiddleware = rootRequestId(idOptions);
    const app = express5();
    app.use(logger.requestId(), logger(format, { redact }), logger('ecs', { redact: false }));
    app.use(logger('combined', { redact: replaced }));
    app.use(logger('json', { errorMessage: 'verbatim' }), logger('tiny', { errorMessage: 'safe' }));
    app.use(ids, logger('json'));
    const same: typeof rootRequestId = logger.requestId;
    void same;
  });

  types('an error handler records its failures', () => {
    const app = express5();
    app.use((err: unknown, req: Request, res: Response, _next: () => void) => {
      logger.recordError(req, err);
      res.status(500).end();
    });
    http.createServer((req, res) => {
      logger.recordError(req, new Error('x'));
      res.end();
    });
  });

  types("trustProxy takes what Express's trust proxy setting takes", () => {
    logger('combined', { trustProxy: true });
    logger('combined', { trustProxy: 2 });
    logger('combined', { trustProxy: 'loopback, 10.0.0.0/8' });
    logger('combined', { trustProxy: ['uniquelocal', '203.0.113.0/24'] as const });
    logger('combined', { trustProxy: (address, hop) => hop < 2 && address !== '10.0.0.9' });
    logger('json', { trustProxy: 'loopback', forwardedHeader: 'forwarded' });
    const options: LoggerOptions = { trustProxy: false, forwardedHeader: null };
    void options;
  });

  types('start takes true or a format, body takes named fields and caps', () => {
    logger('json', { start: true });
    logger('combined', { start: ':request-id :method :url' });
    logger('combined', { start: 'tiny', skip: (req) => req.url === '/health' });
    logger<Request, Response>('tiny', {
      start: (tokens, req, res) => `${tokens.method?.(req, res)} ${req.originalUrl}`,
    });
    logger('ecs', { body: { fields: ['user.name', 'order.items'], maxBytes: 1024, maxDepth: 2 } });
    const body: BodyFieldsOptions = { fields: ['items.0.sku'] as const };
    const options: LoggerOptions = { start: null, body: false };
    void body;
    void options;
  });

  types('exclude, sample, slow and level', () => {
    logger('json', {
      exclude: { paths: ['/health', '/assets/*', /^\/metrics/], methods: ['OPTIONS'] },
    });
    logger('json', { exclude: { statuses: [304, '3xx', [500, 599]] } });
    logger('json', { sample: 0.1, slow: 500 });
    logger('json', { sample: { rate: 0.1, keepStatus: 500, traceId: false } });
    logger('json', {
      level: (req, res) =>
        res.statusCode >= 500 ? 'error' : req.method === 'OPTIONS' ? 'silent' : 'info',
    });
    // An Express request type flows into the level function.
    express5().use(
      logger<Request, Response>('ecs', {
        level: (req) => (req.path === '/health' ? 'debug' : 'info'),
      }),
    );
    const exclusions: LogExclusions = { paths: ['/health'] };
    const sampling: SampleOptions = { rate: 0.5 };
    const level: LogLevel = 'silent';
    const range: StatusMatch = [400, 499];
    void [exclusions, sampling, level, range];
  });

  types('misuse is a type error', () => {
    const misuse = () => {
      // @ts-expect-error exclude is an object of lists
      logger('tiny', { exclude: ['/health'] });
      // @ts-expect-error exclude has paths, methods and statuses
      logger('tiny', { exclude: { path: ['/health'] } });
      // @ts-expect-error a status class is 1xx to 5xx
      logger('tiny', { exclude: { statuses: ['6xx'] } });
      // @ts-expect-error sample is a rate or { rate }
      logger('tiny', { sample: '10%' });
      // @ts-expect-error sample's object form needs its rate
      logger('tiny', { sample: { keepStatus: 500 } });
      // @ts-expect-error slow is a number of milliseconds
      logger('tiny', { slow: '1s' });
      // @ts-expect-error level returns a level name
      logger('tiny', { level: () => 'loud' });
      // @ts-expect-error level is a function
      logger('tiny', { level: 'warn' });
      // @ts-expect-error a format is a string or a function
      logger(42);
      // @ts-expect-error the format is required
      logger();
      // @ts-expect-error skip is a function
      logger('tiny', { skip: 'yes' });
      // @ts-expect-error a stream has a write method
      logger('tiny', { stream: {} });
      // @ts-expect-error immediate is a boolean
      logger('tiny', { immediate: 'yes' });
      // @ts-expect-error errorMessage is 'safe' or 'verbatim'
      logger('json', { errorMessage: 'raw' });
      // @ts-expect-error buffer (morgan's deprecated option) is a boolean or an interval
      logger('tiny', { buffer: '1s' });
      // @ts-expect-error trustProxy is not an object of settings
      logger('tiny', { trustProxy: { hops: 1 } });
      // @ts-expect-error a trustProxy function answers whether the hop is trusted
      logger('tiny', { trustProxy: (address: string) => address });
      // @ts-expect-error a trust list holds addresses and ranges as text
      logger('tiny', { trustProxy: [10] });
      // @ts-expect-error start is true or a format, not a number
      logger('tiny', { start: 1 });
      // @ts-expect-error body names its fields
      logger('json', { body: { maxBytes: 1024 } });
      // @ts-expect-error body fields are key paths as text
      logger('json', { body: { fields: [['user', 'name']] } });
      // @ts-expect-error maxBytes is a number of bytes
      logger('json', { body: { fields: ['a'], maxBytes: '1kb' } });
      // @ts-expect-error forwardedHeader names x-forwarded-for or forwarded
      logger('tiny', { trustProxy: 1, forwardedHeader: 'x-real-ip' });
      // @ts-expect-error a token returns a printable value
      logger.token('bad', () => ({ not: 'printable' }));
      // @ts-expect-error compile takes a format string only
      logger.compile(() => '');
      // @ts-expect-error a JSON field is a token string, a function, a literal or a map
      logger.json({ list: [1, 2] });
      // @ts-expect-error redact lists are arrays of names
      logger('json', { redact: { headers: 'cookie' } });
      // @ts-expect-error trust is a boolean
      logger.requestId({ trust: 'yes' });
      // @ts-expect-error a redact function returns a list of names
      logger('json', { redact: { query: () => 'otp' } });
      // @ts-expect-error an error is recorded for a request
      logger.recordError(new Error('x'), new Error('x'));
      // @ts-expect-error the default lists are read-only
      logger.redactDefaults.query.push('otp');
      const log = logger('tiny');
      const req = {} as IncomingMessage;
      const res = {} as ServerResponse;
      // @ts-expect-error the middleware needs next
      log(req, res);
      // @ts-expect-error the middleware takes a request, not a string
      log('GET /', res, () => {});
    };
    void misuse;
  });
});

types('the metrics option', () => {
  types('takes true, false, null or { meter }, an OpenTelemetry Meter', async () => {
    const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
    const { metrics } = await import('@opentelemetry/api');
    logger('combined', { metrics: true });
    logger('combined', { metrics: false });
    logger('combined', { metrics: null });
    logger('json', { metrics: { meter: new MeterProvider().getMeter('app') } });
    logger('json', { metrics: { meter: metrics.getMeter('app') } });
    const options: LoggerOptions = { metrics: { meter: metrics.getMeter('app') } };
    const meter: OtelMeter = metrics.getMeter('app');
    const form: MetricsOptions = { meter };
    logger('tiny', { ...options, metrics: form });
  });

  types('refuses anything else', () => {
    // @ts-expect-error metrics is true or { meter }
    logger('combined', { metrics: 'yes' });
    // @ts-expect-error a meter has createHistogram and createUpDownCounter
    logger('combined', { metrics: { meter: {} } });
    // @ts-expect-error the object form needs its meter
    logger('combined', { metrics: {} });
  });
});
