// logger.format(name, format) and logger.compile(format).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

describe('logger.format', () => {
  it('registers a format string usable by name', async () => {
    logger.format('test-named', ':method :url :status');
    const server = await loggedServer((stream) => logger('test-named', { stream }));
    try {
      await send(server, { path: '/named' });
      assert.deepEqual(await server.capture.waitFor(1), ['GET /named 200']);
    } finally {
      await server.close();
    }
  });

  it('registers a format function usable by name', async () => {
    logger.format('test-named-fn', (tokens, req, res) => `fn:${tokens.url(req, res)}`);
    const server = await loggedServer((stream) => logger('test-named-fn', { stream }));
    try {
      await send(server, { path: '/f' });
      assert.deepEqual(await server.capture.waitFor(1), ['fn:/f']);
    } finally {
      await server.close();
    }
  });

  it('overwrites a predefined format', async () => {
    logger.format('common', ':method common');
    const server = await loggedServer((stream) => logger('common', { stream }));
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['GET common']);
    } finally {
      await server.close();
    }
  });

  it('a name registered after a logger was created does not change that logger', async () => {
    const before = await loggedServer((stream) => logger('test-replaced', { stream }));
    logger.format('test-replaced', 'replaced');
    const after = await loggedServer((stream) => logger('test-replaced', { stream }));
    try {
      await send(before);
      await send(after);
      assert.deepEqual(await before.capture.waitFor(1), ['test-replaced']);
      assert.deepEqual(await after.capture.waitFor(1), ['replaced']);
    } finally {
      await before.close();
      await after.close();
    }
  });

  it('returns the logger, for chaining', () => {
    assert.equal(logger.format('test-c1', ':url').format('test-c2', ':url'), logger);
  });

  it('rejects a format that is neither a string nor a function', () => {
    assert.throws(() => logger.format('bad', 42 as never), {
      name: 'TypeError',
      message: /argument format/,
    });
  });
});

describe('logger.compile', () => {
  it('returns a format function of three parameters', () => {
    const fn = logger.compile(':method :url');
    assert.equal(typeof fn, 'function');
    assert.equal(fn.length, 3);
  });

  it('rejects anything but a string with a TypeError naming the argument', () => {
    for (const value of [undefined, null, 42, () => ':method', {}]) {
      assert.throws(() => logger.compile(value as never), {
        name: 'TypeError',
        message: /argument format/,
      });
    }
  });

  it('the compiled function can be used as a format', async () => {
    const server = await loggedServer((stream) =>
      logger(logger.compile(':method :status'), { stream }),
    );
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['GET 200']);
    } finally {
      await server.close();
    }
  });

  it('the compiled function can be called from a format function', async () => {
    const compiled = logger.compile(':method :url');
    const server = await loggedServer((stream) =>
      logger((tokens, req, res) => `>> ${compiled(tokens, req, res)}`, { stream }),
    );
    try {
      await send(server, { path: '/in' });
      assert.deepEqual(await server.capture.waitFor(1), ['>> GET /in']);
    } finally {
      await server.close();
    }
  });

  it('a caller may pass its own tokens object; missing names fall back to the registry', () => {
    const compiled = logger.compile(':own :method');
    const req = { method: 'PUT' } as never;
    assert.equal(compiled({ own: () => 'mine' } as never, req, {} as never), 'mine PUT');
  });
});
