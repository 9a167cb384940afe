/// <reference path="./request-id.d.ts" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as types from '../dist/index.cjs';

// `require('httpware/logger')` is the logger function itself, as `require('morgan')` is, so its
// types live on a namespace merged with it: `logger.FormatFn` in any import style, and
// `import { type FormatFn }` beside a default import under CommonJS resolution.
declare const logger: types.Logger;

declare namespace logger {
  export type BuiltinTokenFn = types.BuiltinTokenFn;
  export type BodyFieldsOptions = types.BodyFieldsOptions;
  export type CompiledFormatFn<
    Req = IncomingMessage,
    Res = ServerResponse,
  > = types.CompiledFormatFn<Req, Res>;
  export type FormatFn<Req = IncomingMessage, Res = ServerResponse> = types.FormatFn<Req, Res>;
  export type JsonFieldFn<Req = IncomingMessage, Res = ServerResponse> = types.JsonFieldFn<
    Req,
    Res
  >;
  export type JsonFieldValue<Req = IncomingMessage, Res = ServerResponse> = types.JsonFieldValue<
    Req,
    Res
  >;
  export type JsonFields<Req = IncomingMessage, Res = ServerResponse> = types.JsonFields<Req, Res>;
  export type JsonFormatFactory = types.JsonFormatFactory;
  export type LogRequest = types.LogRequest;
  export type LogResponse = types.LogResponse;
  export type Destination = types.Destination;
  export type DestinationFactory = types.DestinationFactory;
  export type DestinationOptions = types.DestinationOptions;
  export type DestinationStats = types.DestinationStats;
  export type FetchHandler = types.FetchHandler;
  export type FetchHandlerOptions = types.FetchHandlerOptions;
  export type FetchLog = types.FetchLog;
  export type FetchLoggerFactory = types.FetchLoggerFactory;
  export type FetchLoggerMiddleware = types.FetchLoggerMiddleware;
  export type FetchLoggerOptions = types.FetchLoggerOptions;
  export type FetchLogRequest = types.FetchLogRequest;
  export type FetchLogResponse = types.FetchLogResponse;
  export type FetchMiddlewareContext = types.FetchMiddlewareContext;
  export type FetchTokenFn = types.FetchTokenFn;
  export type LogStream = types.LogStream;
  export type Logger = types.Logger;
  export type Next = types.Next;
  export type LoggerMiddleware<
    Req = IncomingMessage,
    Res = ServerResponse,
  > = types.LoggerMiddleware<Req, Res>;
  export type LoggerOptions<Req = IncomingMessage, Res = ServerResponse> = types.LoggerOptions<
    Req,
    Res
  >;
  export type OtelLoggerProvider = types.OtelLoggerProvider;
  export type OtelOptions = types.OtelOptions;
  export type MetricsOptions = types.MetricsOptions;
  export type OtelMeter = types.OtelMeter;
  export type PredefinedFormat = types.PredefinedFormat;
  export type RedactDefaults = types.RedactDefaults;
  export type RedactList = types.RedactList;
  export type RedactOptions = types.RedactOptions;
  export type RequestIdFactory = types.RequestIdFactory;
  export type RequestIdMiddleware<
    Req = IncomingMessage,
    Res = ServerResponse,
  > = types.RequestIdMiddleware<Req, Res>;
  export type RequestIdOptions = types.RequestIdOptions;
  export type TokenFn<Req = IncomingMessage, Res = ServerResponse> = types.TokenFn<Req, Res>;
  export type TokenValue = types.TokenValue;
  export type Tokens = types.Tokens;
  export type TrustProxy = types.TrustProxy;
  export type TrustProxyAddress = types.TrustProxyAddress;
  export type TrustProxyName = types.TrustProxyName;
  // The production controls (exclude, sample, level)
  export type LogExclusions = types.LogExclusions;
  export type LogLevel = types.LogLevel;
  export type SampleOptions = types.SampleOptions;
  export type StatusMatch = types.StatusMatch;

  // The names code written for `@types/morgan` uses, so that it compiles unchanged once its
  // import names httpware/logger. Each is the httpware type of the same role; where morgan's
  // typings are narrower than what morgan does, httpware's is the wider, accurate one.

  /** A log destination: anything with `write(line)`. httpware's name: `LogStream`. */
  export type StreamOptions = types.LogStream;
  /** The logger's options. httpware's name: `LoggerOptions`. */
  export type Options<
    Req extends IncomingMessage = IncomingMessage,
    Res extends ServerResponse = ServerResponse,
  > = types.LoggerOptions<Req, Res>;
  /** The tokens handed to a format function. httpware's name: `Tokens`. */
  export type TokenIndexer<
    _Req extends IncomingMessage = IncomingMessage,
    _Res extends ServerResponse = ServerResponse,
  > = types.Tokens;
  /**
   * A token function in the shape `@types/morgan` gives it; `logger.token` takes any
   * `TokenFn`, of which this is one (the logger itself passes `arg` as a string or not at all).
   */
  export type TokenCallbackFn<
    Req extends IncomingMessage = IncomingMessage,
    Res extends ServerResponse = ServerResponse,
  > = (req: Req, res: Res, arg?: string | number | boolean) => string | undefined;
  /** The logger function and its members. httpware's name: `Logger`. */
  export type Morgan<
    _Req extends IncomingMessage = IncomingMessage,
    _Res extends ServerResponse = ServerResponse,
  > = types.Logger;
}

export = logger;
