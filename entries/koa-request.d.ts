// Loaded with httpware/koa's types: adds what its parsers set to Koa's `Request` (@types/koa),
// by module augmentation, as Koa's body parsers do. `body` is declared as @koa/bodyparser 6
// declares it (`unknown`: what a client sent, to be checked or given a `schema`), so code
// written for it compiles unchanged. `rawBody` is the Buffer httpware keeps with
// `rawBody: true`, and absent otherwise (@koa/bodyparser's is a string, always declared).
import 'koa';

declare module 'koa' {
  interface Request {
    /** The parsed body, set by an httpware/koa parser that read the request. */
    body?: unknown;
    /** The exact body bytes (after inflation), set by a parser created with `rawBody: true`. */
    rawBody?: Buffer | undefined;
  }
}
