/// <reference path="./raw-body.d.ts" />
import type * as types from '../dist/index.cjs';

// `require('httpware/parsers')` is the parsers object itself, as `require('body-parser')` is, so
// its types live on a namespace merged with it: `parsers.JsonOptions` in any import style, and
// `import { type JsonOptions }` beside a default import under CommonJS resolution.
declare const parsers: types.Parsers;

declare namespace parsers {
  export type JsonOptions = types.JsonOptions;
  export type Next = types.Next;
  export type ParserMiddleware = types.ParserMiddleware;
  export type ParserOptions = types.ParserOptions;
  export type Parsers = types.Parsers;
  export type ProtoPoisoningAction = types.ProtoPoisoningAction;
  export type RawOptions = types.RawOptions;
  export type RequestWithBody<T = unknown> = types.RequestWithBody<T>;
  export type RequestWithValidatedBody<T> = types.RequestWithValidatedBody<T>;
  export type TextOptions = types.TextOptions;
  export type TypeFunction = types.TypeFunction;
  export type Untrusted<T> = types.Untrusted<T>;
  export type UrlencodedOptions = types.UrlencodedOptions;
  export type VerifyFunction<Encoding extends string | null = string | null> =
    types.VerifyFunction<Encoding>;

  // The names code written for `@types/body-parser` uses, so that it compiles unchanged once
  // its import names httpware/parsers. Each is the httpware type of the same role.

  /** The parsers object. httpware's name: `Parsers`. */
  export type BodyParser = types.Parsers;
  /** The options every parser takes (and all `raw` takes). httpware's name: `ParserOptions`. */
  export type Options = types.ParserOptions;
  /** `json`'s options. httpware's name: `JsonOptions`. */
  export type OptionsJson = types.JsonOptions;
  /** `text`'s options. httpware's name: `TextOptions`. */
  export type OptionsText = types.TextOptions;
  /** `urlencoded`'s options. httpware's name: `UrlencodedOptions`. */
  export type OptionsUrlencoded = types.UrlencodedOptions;
}

export = parsers;
