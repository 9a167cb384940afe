/// <reference path="./koa-request.d.ts" />
import type * as types from '../dist/index.cjs';

// `require('httpware/koa')` is the Koa middleware object; its types live on a namespace merged
// with it, so `koa.KoaMiddleware` works in any import style.
declare const koa: types.Koa;

declare namespace koa {
  export type Koa = types.Koa;
  export type BodyParserContext = types.BodyParserContext;
  export type BodyParserOptions = types.BodyParserOptions;
  export type BodyType = types.BodyType;
  export type KoaBodyParser = types.KoaBodyParser;
  export type KoaContext = types.KoaContext;
  export type KoaLogger = types.KoaLogger;
  export type KoaMiddleware = types.KoaMiddleware;
  export type KoaNext = types.KoaNext;
  export type KoaParser<Options> = types.KoaParser<Options>;
  export type JsonOptions = types.JsonOptions;
  export type LoggerOptions = types.LoggerOptions;
  export type ParserOptions = types.ParserOptions;
  export type RawOptions = types.RawOptions;
  export type TextOptions = types.TextOptions;
  export type UrlencodedOptions = types.UrlencodedOptions;
}

export = koa;
