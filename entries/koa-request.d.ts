// Loaded with httpware/koa's types: adds what its parsers set to Koa's `Request` (@types/koa),
// by module augmentation, as Koa's body parsers do. `body` is declared exactly as
// @koa/bodyparser declares it (`any`), so a project that still has it installed while migrating
// compiles, and code written for it (`ctx.request.body.name`) compiles unchanged; a parser made
// with a `schema` gives the schema's output, which the application may assert. `rawBody` is the
// Buffer httpware keeps with `rawBody: true` (koa-bodyparser's is a string).
import 'koa';

declare module 'koa' {
  interface Request {
    /** The parsed body, set by an httpware/koa parser that read the request. */
    // biome-ignore lint/suspicious/noExplicitAny: the type Koa's body parsers give it (see above)
    body?: any;
    /** The exact body bytes (after inflation), set by a parser created with `rawBody: true`. */
    rawBody?: Buffer | undefined;
  }
}
