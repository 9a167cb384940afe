/// <reference path="./koa-request.d.ts" />
// The ESM face of koa.d.cts: the same object as the default export, its six middleware
// factories as named exports, and the namespace's types as named exports.
// `import = require`, not a default import: see parsers.d.mts.
import koa = require('./koa.cjs');

export import Koa = koa.Koa;
export import BodyParserContext = koa.BodyParserContext;
export import BodyParserOptions = koa.BodyParserOptions;
export import BodyType = koa.BodyType;
export import KoaBodyParser = koa.KoaBodyParser;
export import KoaContext = koa.KoaContext;
export import KoaLogger = koa.KoaLogger;
export import KoaMiddleware = koa.KoaMiddleware;
export import KoaNext = koa.KoaNext;
export import KoaParser = koa.KoaParser;
export import JsonOptions = koa.JsonOptions;
export import LoggerOptions = koa.LoggerOptions;
export import ParserOptions = koa.ParserOptions;
export import RawOptions = koa.RawOptions;
export import TextOptions = koa.TextOptions;
export import UrlencodedOptions = koa.UrlencodedOptions;
export declare const logger: koa.Koa['logger'];
export declare const json: koa.Koa['json'];
export declare const urlencoded: koa.Koa['urlencoded'];
export declare const text: koa.Koa['text'];
export declare const raw: koa.Koa['raw'];
export declare const bodyParser: koa.Koa['bodyParser'];
export { koa };
export default koa;
