/// <reference path="./request-id.d.ts" />
// The ESM face of logger.d.cts: the same function, with the same namespace, as the default
// export, and each of the namespace's types as a named export (so `import { type FormatFn }`
// and `import * as logger` reach them too).
// `import = require`, not a default import: the default import of an `export =` module needs
// esModuleInterop, which a bundler project may turn off.
import logger = require('./logger.cjs');

export import BuiltinTokenFn = logger.BuiltinTokenFn;
export import BodyFieldsOptions = logger.BodyFieldsOptions;
export import CompiledFormatFn = logger.CompiledFormatFn;
export import FormatFn = logger.FormatFn;
export import JsonFieldFn = logger.JsonFieldFn;
export import JsonFieldValue = logger.JsonFieldValue;
export import JsonFields = logger.JsonFields;
export import JsonFormatFactory = logger.JsonFormatFactory;
export import LogRequest = logger.LogRequest;
export import LogResponse = logger.LogResponse;
export import Destination = logger.Destination;
export import DestinationFactory = logger.DestinationFactory;
export import DestinationOptions = logger.DestinationOptions;
export import DestinationStats = logger.DestinationStats;
export import FetchHandler = logger.FetchHandler;
export import FetchHandlerOptions = logger.FetchHandlerOptions;
export import FetchLog = logger.FetchLog;
export import FetchLoggerFactory = logger.FetchLoggerFactory;
export import FetchLoggerMiddleware = logger.FetchLoggerMiddleware;
export import FetchLoggerOptions = logger.FetchLoggerOptions;
export import FetchLogRequest = logger.FetchLogRequest;
export import FetchLogResponse = logger.FetchLogResponse;
export import FetchMiddlewareContext = logger.FetchMiddlewareContext;
export import FetchTokenFn = logger.FetchTokenFn;
export import LogStream = logger.LogStream;
export import Logger = logger.Logger;
export import Next = logger.Next;
export import LoggerMiddleware = logger.LoggerMiddleware;
export import LoggerOptions = logger.LoggerOptions;
export import OtelLoggerProvider = logger.OtelLoggerProvider;
export import OtelOptions = logger.OtelOptions;
export import MetricsOptions = logger.MetricsOptions;
export import OtelMeter = logger.OtelMeter;
export import PredefinedFormat = logger.PredefinedFormat;
export import RedactDefaults = logger.RedactDefaults;
export import RedactList = logger.RedactList;
export import RedactOptions = logger.RedactOptions;
export import RequestIdFactory = logger.RequestIdFactory;
export import RequestIdMiddleware = logger.RequestIdMiddleware;
export import RequestIdOptions = logger.RequestIdOptions;
export import TokenFn = logger.TokenFn;
export import TokenValue = logger.TokenValue;
export import Tokens = logger.Tokens;
export import TrustProxy = logger.TrustProxy;
export import TrustProxyAddress = logger.TrustProxyAddress;
export import TrustProxyName = logger.TrustProxyName;
// The production controls (exclude, sample, level)
export import LogExclusions = logger.LogExclusions;
export import LogLevel = logger.LogLevel;
export import SampleOptions = logger.SampleOptions;
export import StatusMatch = logger.StatusMatch;
export import StreamOptions = logger.StreamOptions;
export import Options = logger.Options;
export import TokenIndexer = logger.TokenIndexer;
export import TokenCallbackFn = logger.TokenCallbackFn;
export import Morgan = logger.Morgan;
export declare const compile: logger.Logger['compile'];
export declare const format: logger.Logger['format'];
export declare const token: logger.Logger['token'];
export declare const recordError: logger.Logger['recordError'];
export declare const redactDefaults: logger.Logger['redactDefaults'];
export declare const fetchLogger: logger.Logger['fetchLogger'];
export declare const destination: logger.Logger['destination'];
export { logger };
export default logger;
