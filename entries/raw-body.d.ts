// Loaded with the entries that carry the parsers (httpware, httpware/parsers): it adds
// `req.rawBody` to Express's `Request`, through the global `Express.Request` interface that
// Express's request type extends. Nothing here needs Express's types.
declare global {
  namespace Express {
    interface Request {
      /** The exact body bytes (after inflation), set by a parser created with `rawBody: true`. */
      rawBody?: Buffer | undefined;
    }
  }
}

export {};
