// Loaded with httpware/koa's types: adds what its parsers set to Koa's `Request` (@types/koa),
// by module augmentation, as Koa's body parsers do. `body` is `unknown` (@koa/bodyparser 6
// declares `any`): what a client sent, to be checked or given a `schema` before it is used.
// `rawBody` is the text `bodyParser` read (a string, as @koa/bodyparser's), or the Buffer a
// parser keeps with `rawBody: true`; absent otherwise.
import 'koa';

declare module 'koa' {
  interface Request {
    /** The parsed body, set by an httpware/koa parser that read the request. */
    body?: unknown;
    /**
     * What the body was read from: the text, set by `bodyParser`; the exact bytes (after
     * inflation), set by a parser created with `rawBody: true`.
     */
    rawBody?: string | Buffer | undefined;
  }
}
