// The async context a line is written in, for both doors. When the line may run the
// application's code (a format function, `skip`, `level`, a custom or replaced token), it is
// made in the async context the request was handled in (as on-finished does), so that code
// sees the request's AsyncLocalStorage store, though the line is written from another context:
// the socket's 'close' on Node (or one the handler left with `als.exit`), the runtime's that
// read the body on the Web door. Built-in tokens read no async context, so a line made only of
// them gets no scope, which is most of the cost of keeping one per request.
//
// A plain `AsyncResource` entered with `runInAsyncScope`, not `AsyncResource.bind`: on Node 20
// `bind` wraps the function through `util.deprecate` twice per call. Destroyed explicitly (not
// when collected), so async_hooks users with a destroy hook see it end as soon as the line is
// out.

import { AsyncResource } from 'node:async_hooks';
import type { Exchange } from './exchange.js';

const MANUAL_DESTROY = { requireManualDestroy: true } as const;

/** The scope of a request's line, made where the request is handled; none if not needed. */
export function lineScope(runsApplicationCode: boolean): AsyncResource | undefined {
  return runsApplicationCode ? new AsyncResource('httpware.logger', MANUAL_DESTROY) : undefined;
}

/** Calls `log(exchange)` in `scope` (then ends it), or as it is when there is none. */
export function writeInScope(
  scope: AsyncResource | undefined,
  log: (exchange: Exchange) => void,
  exchange: Exchange,
): void {
  if (scope === undefined) {
    log(exchange);
    return;
  }
  try {
    scope.runInAsyncScope(log, undefined, exchange);
  } finally {
    scope.emitDestroy();
  }
}
