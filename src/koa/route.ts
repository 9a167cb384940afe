// The route a Koa router matched (`http.route`, `:route`), read from the context as
// @koa/router (v15) and koa-router (v14) leave it. Both record, on the context:
// - `ctx.matched`: every layer whose path matched, route and middleware layers alike, pushed to
//   by each router the request goes through (a layer with `methods` is a route, one without a
//   `router.use` middleware);
// - `ctx._matchedRoute`: the path of the layer that ran last, prefixes included (a nested
//   router's layers are copied into its parent with the parent's prefix), set on matching and
//   again as each matched layer starts. It is the one field both document for this purpose
//   ("its path is available at ctx._matchedRoute").
// `ctx.routerPath` holds the same path, but is also what a router matches against when set, so
// it is an input of routing, not a record of it; `_matchedRouteName` is the route's name, if it
// has one, not its template; `ctx.routeMatched` is @koa/router's alone, and a boolean.
//
// `_matchedRoute` is taken only when it is a route layer's path. A router middleware that
// answers or throws before the route's layer runs (an authentication check's 401) leaves its
// own path there, a pattern such as `/api(?:\/|$)`, which is no route: that request has none,
// as under Express, where `req.route` is set only once a route's handlers run. A path given as
// a RegExp has no single string form: none either.

/** What the reader uses of a router's layer. */
interface RouterLayer {
  readonly path?: unknown;
  readonly methods?: { readonly length: number };
}

/** What the reader uses of a Koa context that went through a router. */
interface RoutedContext {
  readonly _matchedRoute?: unknown;
  readonly matched?: unknown;
}

/** The route template the router matched, prefixes included; undefined when none. */
export function koaRoute(ctx: object): string | undefined {
  const { _matchedRoute: route, matched } = ctx as RoutedContext;
  if (typeof route !== 'string' || !Array.isArray(matched)) return undefined;
  for (const layer of matched as readonly (RouterLayer | null | undefined)[]) {
    if (layer?.path === route && (layer.methods?.length ?? 0) > 0) return route;
  }
  return undefined;
}
