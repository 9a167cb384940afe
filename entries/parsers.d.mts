/// <reference path="./raw-body.d.ts" />
// The ESM face of parsers.d.cts: the same object, with the same namespace, as the default
// export, its four parsers as named exports, and each of the namespace's types as a named
// export (so `import { type JsonOptions }` and `import * as parsers` reach them too).
// `import = require`, not a default import: the default import of an `export =` module needs
// esModuleInterop, which a bundler project may turn off.
import parsers = require('./parsers.cjs');

export import JsonOptions = parsers.JsonOptions;
export import JsonParser = parsers.JsonParser;
export import JsonReadOptions = parsers.JsonReadOptions;
export import Next = parsers.Next;
export import Parser = parsers.Parser;
export import ParserMiddleware = parsers.ParserMiddleware;
export import ParserOptions = parsers.ParserOptions;
export import Parsers = parsers.Parsers;
export import ProtoPoisoningAction = parsers.ProtoPoisoningAction;
export import RawOptions = parsers.RawOptions;
export import RawParser = parsers.RawParser;
export import RawReadOptions = parsers.RawReadOptions;
export import ReadOptions = parsers.ReadOptions;
export import ReadVerifyFunction = parsers.ReadVerifyFunction;
export import RequestWithBody = parsers.RequestWithBody;
export import RequestWithValidatedBody = parsers.RequestWithValidatedBody;
export import StandardSchemaV1 = parsers.StandardSchemaV1;
export import TextOptions = parsers.TextOptions;
export import TextParser = parsers.TextParser;
export import TextReadOptions = parsers.TextReadOptions;
export import TypeFunction = parsers.TypeFunction;
export import Untrusted = parsers.Untrusted;
export import UrlencodedOptions = parsers.UrlencodedOptions;
export import UrlencodedParser = parsers.UrlencodedParser;
export import UrlencodedReadOptions = parsers.UrlencodedReadOptions;
export import ValidatingMiddleware = parsers.ValidatingMiddleware;
export import ValidationIssue = parsers.ValidationIssue;
export import VerifyFunction = parsers.VerifyFunction;
export import ProblemDocument = parsers.ProblemDocument;
export import ProblemHandler = parsers.ProblemHandler;
export import WebAbortSignal = parsers.WebAbortSignal;
export import WebReadOptions = parsers.WebReadOptions;
export import WebRequest = parsers.WebRequest;
export import WebRequestBody = parsers.WebRequestBody;
export import WebVerifyFunction = parsers.WebVerifyFunction;
export import BodyParser = parsers.BodyParser;
export import Options = parsers.Options;
export import OptionsJson = parsers.OptionsJson;
export import OptionsText = parsers.OptionsText;
export import OptionsUrlencoded = parsers.OptionsUrlencoded;
export declare const json: parsers.Parsers['json'];
export declare const raw: parsers.Parsers['raw'];
export declare const text: parsers.Parsers['text'];
export declare const urlencoded: parsers.Parsers['urlencoded'];
export declare const toResponse: parsers.Parsers['toResponse'];
export declare const problemHandler: parsers.Parsers['problemHandler'];
export { parsers };
export default parsers;
