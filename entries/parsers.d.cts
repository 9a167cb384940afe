/// <reference path="./raw-body.d.ts" />
import type * as types from '../dist/index.cjs';

// `require('httpware/parsers')` is the parsers object itself, as `require('body-parser')` is, so
// its types live on a namespace merged with it: `parsers.JsonOptions` in any import style, and
// `import { type JsonOptions }` beside a default import under CommonJS resolution.
declare const parsers: types.Parsers;

declare namespace parsers {
  export type JsonOptions = types.JsonOptions;
  export type JsonParser = types.JsonParser;
  export type JsonReadOptions = types.JsonReadOptions;
  export type Next = types.Next;
  export type Parser<
    Options,
    Read,
    Body,
    Encoding extends string | null = string | null,
  > = types.Parser<Options, Read, Body, Encoding>;
  export type ParserMiddleware = types.ParserMiddleware;
  export type ParserOptions = types.ParserOptions;
  export type Parsers = types.Parsers;
  export type ProtoPoisoningAction = types.ProtoPoisoningAction;
  export type RawOptions = types.RawOptions;
  export type RawParser = types.RawParser;
  export type RawReadOptions = types.RawReadOptions;
  export type ReadOptions<Encoding extends string | null = string | null> =
    types.ReadOptions<Encoding>;
  export type ReadVerifyFunction<Encoding extends string | null = string | null> =
    types.ReadVerifyFunction<Encoding>;
  export type RequestWithBody<T = unknown> = types.RequestWithBody<T>;
  export type RequestWithValidatedBody<T> = types.RequestWithValidatedBody<T>;
  /** A Standard Schema v1 validator (zod, valibot, arktype, ...): what `schema` takes. */
  export interface StandardSchemaV1<Input = unknown, Output = Input>
    extends types.StandardSchemaV1<Input, Output> {}
  export namespace StandardSchemaV1 {
    export type Props<Input = unknown, Output = Input> = types.StandardSchemaV1.Props<
      Input,
      Output
    >;
    export type Result<Output> = types.StandardSchemaV1.Result<Output>;
    export type SuccessResult<Output> = types.StandardSchemaV1.SuccessResult<Output>;
    export type FailureResult = types.StandardSchemaV1.FailureResult;
    export type Issue = types.StandardSchemaV1.Issue;
    export type PathSegment = types.StandardSchemaV1.PathSegment;
    export type Types<Input = unknown, Output = Input> = types.StandardSchemaV1.Types<
      Input,
      Output
    >;
    export type InferInput<Schema extends types.StandardSchemaV1> =
      types.StandardSchemaV1.InferInput<Schema>;
    export type InferOutput<Schema extends types.StandardSchemaV1> =
      types.StandardSchemaV1.InferOutput<Schema>;
  }
  export type TextOptions = types.TextOptions;
  export type TextParser = types.TextParser;
  export type TextReadOptions = types.TextReadOptions;
  export type TypeFunction = types.TypeFunction;
  export type Untrusted<T> = types.Untrusted<T>;
  export type UrlencodedOptions = types.UrlencodedOptions;
  export type UrlencodedParser = types.UrlencodedParser;
  export type UrlencodedReadOptions = types.UrlencodedReadOptions;
  export type ValidatingMiddleware<Body> = types.ValidatingMiddleware<Body>;
  export type ValidationIssue = types.ValidationIssue;
  export type VerifyFunction<Encoding extends string | null = string | null> =
    types.VerifyFunction<Encoding>;
  export type ProblemDocument = types.ProblemDocument;
  export type ProblemHandler = types.ProblemHandler;
  export type WebAbortSignal = types.WebAbortSignal;
  export type WebReadOptions<
    Read,
    Request extends types.WebRequest = types.WebRequest,
    Encoding extends string | null = string | null,
  > = types.WebReadOptions<Read, Request, Encoding>;
  export type WebRequest = types.WebRequest;
  export type WebRequestBody = types.WebRequestBody;
  export type WebVerifyFunction<
    Request extends types.WebRequest = types.WebRequest,
    Encoding extends string | null = string | null,
  > = types.WebVerifyFunction<Request, Encoding>;

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
