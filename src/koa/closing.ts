// Koa's error response and a body given up on: shared by httpware/koa's parsers.

import type { ServerResponse } from 'node:http';

/**
 * A parser that gives up on the rest of a body (over 1 MiB of it still to come, or still
 * coming 1 s after the error: src/parsers/pipeline.ts's DRAIN_LIMIT_BYTES and _MS) marks
 * the response `Connection: close`, the only way HTTP/1.1 has to stop it. Koa's error response
 * first removes every header set before it, and a removed Connection header also stops Node
 * from writing its own: the client would be told nothing, and the connection kept open to the
 * bytes still coming. Koa sets the error's `headers` (http-errors' convention) after that
 * removal, so the header goes there. HTTP/2 has no such header (nor `shouldKeepAlive`).
 */
export function keepClosing(err: unknown, res: ServerResponse): unknown {
  if (res.shouldKeepAlive === false && typeof err === 'object' && err !== null) {
    const error = err as { headers?: Record<string, string> };
    if (error.headers === undefined) error.headers = { connection: 'close' };
  }
  return err;
}
