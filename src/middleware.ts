// The one type the logger's and the parsers' middleware share.

/**
 * The `next` a middleware is given: called with nothing to go on, or with the error that ends
 * the request (a parser may pass on whatever an application's `type` function threw).
 *
 * Declared with method syntax, so its parameter is compared bivariantly: a callback typed
 * `(err?: Error) => void` (as `@types/morgan` types it), `(err?: any) => void` (Express and
 * Connect) or `(err?: unknown) => void` is accepted.
 */
export type Next = { next(err?: unknown): void }['next'];
