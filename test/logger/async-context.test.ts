// The application's code that a line may run (a format function, a skip function, a custom
// token, a built-in token replaced later) sees the AsyncLocalStorage store that was active when
// the logger ran, even when the response ends from another context. A line made only of
// built-in tokens runs no such code and keeps no async resource for it.
import assert from 'node:assert/strict';
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { builtinTokens } from '../../src/logger/core/tokens.js';
import { logger } from '../../src/logger/index.js';
import { type Handler, type Middleware, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const als = new AsyncLocalStorage<string>();
const inStore: Middleware = (_req, _res, next) => als.run('ctx-1', next);
// The response ends later, outside the store: the line must still see it.
const endOutside: Handler = (_req, res) => {
  setTimeout(() => als.exit(() => res.end()), 5);
};

async function lineOf(makeLogger: Parameters<typeof loggedServer>[0]): Promise<string[]> {
  const server = await loggedServer(makeLogger, { before: [inStore], handler: endOutside });
  try {
    await send(server);
    return await server.capture.waitFor(1);
  } finally {
    await server.close();
  }
}

/** The async resources of the logger's type made while `run` runs. */
async function loggerResourcesDuring(run: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'httpware.logger') made++;
    },
  }).enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

describe('async context', () => {
  it('a format function reads the store active when the logger ran', async () => {
    const lines = await lineOf((stream) => logger(() => `store=${als.getStore()}`, { stream }));
    assert.deepEqual(lines, ['store=ctx-1']);
  });

  it('a skip function reads the store active when the logger ran', async () => {
    const seen: unknown[] = [];
    const lines = await lineOf((stream) =>
      logger(':method', {
        stream,
        skip: () => {
          seen.push(als.getStore());
          return false;
        },
      }),
    );
    assert.deepEqual(lines, ['GET']);
    assert.deepEqual(seen, ['ctx-1']);
  });

  it('a built-in token replaced after the logger was made reads the store', async () => {
    const server = await loggedServer((stream) => logger(':pid', { stream }), {
      before: [inStore],
      handler: endOutside,
    });
    try {
      logger.token('pid', () => als.getStore());
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['ctx-1']);
    } finally {
      // The built-in function itself: the registry counts `:pid` as built-in again.
      logger.token('pid', builtinTokens.pid as NonNullable<typeof builtinTokens.pid>);
      await server.close();
    }
  });

  it('a line of built-in tokens keeps no async resource; a custom token gets one', async () => {
    logger.token('test-ctx', () => als.getStore());
    const builtinOnly = await loggerResourcesDuring(() =>
      lineOf((stream) => logger('combined', { stream })),
    );
    const withCustom = await loggerResourcesDuring(() =>
      lineOf((stream) => logger(':test-ctx', { stream })),
    );
    assert.equal(builtinOnly, 0);
    assert.equal(withCustom, 1);
  });
});
