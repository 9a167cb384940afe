// :response-time (arrival -> headers written) and :total-time (arrival -> response done), with
// their digits argument, measured on a controlled clock; and the real clock's ordering.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { builtinTokens } from '../../src/logger/core/tokens.js';
import { logger } from '../../src/logger/index.js';
import type { TokenFn } from '../../src/logger/types.js';
import { frameworks, type Handler, send } from '../helpers/index.js';
import { fixTime, loggedServer } from '../helpers/logger.js';

let undo: () => void = () => {};
afterEach(() => undo());

async function lineFor(
  framework: (typeof frameworks)[number],
  format: string,
  handler?: Handler,
): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), {
    framework,
    ...(handler ? { handler } : {}),
  });
  try {
    await send(server);
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

for (const framework of frameworks) {
  describe(`timing tokens in ${framework}`, () => {
    it(':response-time has three digits by default', async () => {
      undo = fixTime(1.23456);
      assert.equal(await lineFor(framework, ':response-time'), '1.235');
    });

    it(':response-time[digits] sets the number of digits', async () => {
      undo = fixTime(1.23456);
      assert.equal(await lineFor(framework, ':response-time[1]'), '1.2');
    });

    it(':response-time[0] has no decimals', async () => {
      undo = fixTime(7.25);
      assert.equal(await lineFor(framework, ':response-time[0]'), '7');
    });

    it(':total-time has three digits by default', async () => {
      undo = fixTime(1.25);
      assert.equal(await lineFor(framework, ':total-time'), '1.250');
    });

    it(':total-time[digits] sets the number of digits', async () => {
      undo = fixTime(1.25);
      assert.equal(await lineFor(framework, ':total-time[5]'), '1.25000');
    });

    it('a format with :res[...] but no :response-time does not read the clock at the head', async () => {
      undo = fixTime(1.25);
      // A clock read at the head too would make it 2.500.
      assert.equal(await lineFor(framework, ':res[x-none] :total-time'), '- 1.250');
    });
  });
}

describe('a built-in token the application redefined', () => {
  it('reads the time to the head through this, in a format without :response-time', async () => {
    undo = fixTime(1.5);
    logger.token('status', function status(this: Record<string, TokenFn>, req, res) {
      return this['response-time']?.(req, res);
    });
    try {
      assert.equal(await lineFor('http', ':status :res[x-none]'), '1.500 -');
    } finally {
      logger.token('status', builtinTokens.status as TokenFn);
    }
  });
});

describe('a second writeHead, which node:http refuses', () => {
  it('changes neither :response-time nor the headers the line shows', async () => {
    undo = fixTime(1.5);
    const line = await lineFor('http', ':response-time :res[x-head]', (_req, res) => {
      res.writeHead(200, { 'x-head': 'first' });
      assert.throws(() => res.writeHead(500, { 'x-head': 'second' }), {
        code: 'ERR_HTTP_HEADERS_SENT',
      });
      res.end();
    });
    // One clock reading at arrival and one at the first head: 1.5 ms apart.
    assert.equal(line, '1.500 first');
  });
});

describe('timing tokens on the real clock', () => {
  it(':response-time stops at the headers, :total-time at the end of the body', async () => {
    const line = await lineFor('http', ':response-time :total-time', (_req, res) => {
      res.writeHead(200);
      res.write('first');
      void delay(30).then(() => res.end('last'));
    });
    const [responseTime, totalTime] = line.split(' ').map(Number);
    assert.ok(responseTime !== undefined && totalTime !== undefined);
    // The 30 ms between head and end are in :total-time only (timers may fire a little early),
    // whatever the machine's speed: both are read on the same clock.
    assert.ok(totalTime - responseTime >= 25, `${responseTime} ms, then ${totalTime} ms`);
  });

  it('an out-of-range digits argument gives -', async () => {
    assert.equal(await lineFor('http', ':response-time[101]'), '-');
  });

  it('timing tokens are - with immediate (no headers yet)', async () => {
    const server = await loggedServer((stream) =>
      logger(':response-time :total-time', { stream, immediate: true }),
    );
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['- -']);
    } finally {
      await server.close();
    }
  });
});

describe('a head sent before the request reached the logger', () => {
  it('leaves :total-time "-", as morgan does', async () => {
    const server = await loggedServer((stream) => logger(':status :total-time', { stream }), {
      before: [
        (_req, res, next) => {
          res.flushHeaders();
          next();
        },
      ],
      handler: (_req, res) => res.end('ok'),
    });
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['200 -']);
    } finally {
      await server.close();
    }
  });
});
