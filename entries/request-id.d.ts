// Loaded with the entries that carry the requestId middleware (httpware, httpware/logger): it
// adds `req.id` to Express's `Request`. Express's request type extends the global
// `Express.Request` interface, which exists for this purpose; declaring it here needs nothing
// from Express's types, so a project without them is unaffected.
declare global {
  namespace Express {
    interface Request {
      /** The request id, set by the requestId middleware (`logger.requestId()`) when it ran. */
      id?: string | undefined;
    }
  }
}

export {};
