// :status[color] colours the status in any format string as dev does, unless the logger was
// made with NO_COLOR set; through both doors.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { captureLines, frameworks, send } from '../helpers/index.js';
import { firstLine, loggedServer } from '../helpers/logger.js';

let savedNoColor: string | undefined;
beforeEach(() => {
  savedNoColor = process.env.NO_COLOR;
  delete process.env.NO_COLOR;
});
afterEach(() => {
  if (savedNoColor === undefined) delete process.env.NO_COLOR;
  else process.env.NO_COLOR = savedNoColor;
});

const lineFor = (
  format: Parameters<typeof logger>[0],
  status: number,
  framework: (typeof frameworks)[number] = 'http',
) =>
  firstLine(
    (stream) => logger(format, { stream }),
    { path: '/c' },
    {
      framework,
      handler: (_req, res) => {
        res.statusCode = status;
        res.end();
      },
    },
  );

/** The line of one request to a fetch handler answering `status`, through fetchLogger. */
async function fetchLine(status: number): Promise<string | undefined> {
  const capture = captureLines();
  const log = fetchLogger(':status[color]', { stream: capture.stream });
  const server = await serveFetch(log(() => new Response('gone', { status })));
  try {
    await send(server);
    return (await capture.waitFor(1))[0];
  } finally {
    await server.close();
  }
}

for (const framework of frameworks) {
  describe(`:status[color] in ${framework}`, () => {
    for (const [status, sgr] of [
      [201, 32],
      [302, 36],
      [404, 33],
      [503, 31],
    ] as const) {
      it(`${status} is coloured ${sgr}, as dev colours it`, async () => {
        assert.equal(
          await lineFor(':method :url :status[color] done', status, framework),
          `GET /c \x1b[${sgr}m${status}\x1b[0m done`,
        );
      });
    }
  });
}

describe(':status[color]', () => {
  it('a request with no answer is an uncoloured -, as in dev', async () => {
    const server = await loggedServer((stream) => logger(':status[color]', { stream }), {
      handler: (req) => req.socket.destroy(),
    });
    try {
      await send(server).catch(() => undefined);
      assert.deepEqual(await server.capture.waitFor(1), ['\x1b[0m-\x1b[0m']);
    } finally {
      await server.close();
    }
  });

  it('is plain when NO_COLOR is set as the logger is made', async () => {
    process.env.NO_COLOR = '1';
    assert.equal(await lineFor(':status[color] :status', 404), '404 404');
  });

  it('is plain for a registered format when NO_COLOR is set as the logger is made', async () => {
    logger.format('coloured-status', ':url :status[color]');
    process.env.NO_COLOR = '1';
    assert.equal(await lineFor('coloured-status', 500), '/c 500');
  });

  it('is plain for a logger.compile format when NO_COLOR is set as the logger is made', async () => {
    const compiled = logger.compile(':status[color]');
    process.env.NO_COLOR = '1';
    assert.equal(await lineFor(compiled, 500), '500');
  });

  it('a logger made before NO_COLOR was set keeps colouring', async () => {
    const server = await loggedServer((stream) => logger(':status[color]', { stream }));
    process.env.NO_COLOR = '1';
    try {
      await send(server);
      assert.deepEqual(await server.capture.waitFor(1), ['\x1b[32m200\x1b[0m']);
    } finally {
      await server.close();
    }
  });

  it('tokens.status ignores the argument: a format function gets the plain status', async () => {
    const line = await lineFor((tokens, req, res) => tokens.status(req, res, 'color'), 404);
    assert.equal(line, '404');
  });
});

describe(':status[color] on the fetch door', () => {
  it('colours the Response status', async () => {
    assert.equal(await fetchLine(410), '\x1b[33m410\x1b[0m');
  });

  it('is plain with NO_COLOR', async () => {
    process.env.NO_COLOR = '1';
    assert.equal(await fetchLine(410), '410');
  });
});
