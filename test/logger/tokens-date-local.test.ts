// :date in the server's time zone and in layouts the application names, through both doors.
// The process's zone is fixed here (each test file runs in its own process): UTC+2, no DST.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { serveFetch } from '../helpers/fetch.js';
import { captureLines, frameworks, send } from '../helpers/index.js';
import { FIXED_NOW, firstLine, fixTime } from '../helpers/logger.js';

process.env.TZ = 'Etc/GMT-2';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime();
});
afterEach(() => undo());

const lineFor = (framework: (typeof frameworks)[number], format: string) =>
  firstLine((stream) => logger(format, { stream }), {}, { framework });

// FIXED_NOW is 2000-10-10 13:55:36.789 UTC: 15:55:36.789 in UTC+2.
for (const framework of frameworks) {
  describe(`:date in local time in ${framework}`, () => {
    it('[local] is the Common Log Format date in local time, with its offset', async () => {
      assert.equal(await lineFor(framework, ':date[local]'), '10/Oct/2000:15:55:36 +0200');
    });

    it('[iso-local] is ISO 8601 in local time, with milliseconds and its offset', async () => {
      assert.equal(await lineFor(framework, ':date[iso-local]'), '2000-10-10T15:55:36.789+02:00');
    });

    it('a layout is rendered in local time', async () => {
      assert.equal(
        await lineFor(framework, ':date[%a %d %b %Y %H:%M:%S.%L %z]'),
        'Tue 10 Oct 2000 15:55:36.789 +0200',
      );
    });

    it('a layout after utc: is rendered in UTC', async () => {
      assert.equal(
        await lineFor(framework, ':date[utc:%Y-%m-%d %H:%M:%S%Z]'),
        '2000-10-10 13:55:36+00:00',
      );
    });
  });
}

describe(':date layouts', () => {
  it('%s is the seconds since 1970, %% a percent sign', async () => {
    assert.equal(await lineFor('http', ':date[%s %%]'), `${Math.floor(FIXED_NOW / 1000)} %`);
  });

  it('%%L is a literal %L, not the milliseconds', async () => {
    assert.equal(await lineFor('http', ':date[%S%%L]'), '36%L');
  });

  it('an unknown directive is written as it is', async () => {
    assert.equal(await lineFor('http', ':date[%Q-%Y]'), '%Q-2000');
  });

  it("morgan's renderings stay in UTC", async () => {
    assert.equal(
      await lineFor('http', ':date[clf] :date[iso] :date[web]'),
      '10/Oct/2000:13:55:36 +0000 2000-10-10T13:55:36.789Z Tue, 10 Oct 2000 13:55:36 GMT',
    );
  });

  it('a format function reads a layout through tokens.date', async () => {
    const line = await lineFor('http', 'local-layout');
    assert.equal(line, '15:55');
  });
});

describe(':date in local time on the fetch door', () => {
  it('[iso-local] and a layout', async () => {
    const capture = captureLines();
    const log = fetchLogger(':date[iso-local] :date[%H:%M]', { stream: capture.stream });
    const server = await serveFetch(log(() => new Response('ok')));
    try {
      await send(server);
      assert.deepEqual(await capture.waitFor(1), ['2000-10-10T15:55:36.789+02:00 15:55']);
    } finally {
      await server.close();
    }
  });
});

logger.format('local-layout', (tokens, req, res) => tokens.date(req, res, '%H:%M'));
