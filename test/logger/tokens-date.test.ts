// :date[format] with a frozen clock: web by default, clf, iso, and - for anything else.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, send } from '../helpers/index.js';
import { fixTime, loggedServer } from '../helpers/logger.js';

let undo: () => void = () => {};
beforeEach(() => {
  undo = fixTime();
});
afterEach(() => undo());

async function lineFor(framework: (typeof frameworks)[number], format: string): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), { framework });
  try {
    await send(server);
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

for (const framework of frameworks) {
  describe(`:date in ${framework}`, () => {
    it('defaults to the web format (RFC 7231)', async () => {
      assert.equal(await lineFor(framework, ':date'), 'Tue, 10 Oct 2000 13:55:36 GMT');
    });

    it('[web] is the RFC 7231 date', async () => {
      assert.equal(await lineFor(framework, ':date[web]'), 'Tue, 10 Oct 2000 13:55:36 GMT');
    });

    it('[clf] is the Common Log Format date in UTC', async () => {
      assert.equal(await lineFor(framework, ':date[clf]'), '10/Oct/2000:13:55:36 +0000');
    });

    it('[iso] is ISO 8601 with milliseconds', async () => {
      assert.equal(await lineFor(framework, ':date[iso]'), '2000-10-10T13:55:36.789Z');
    });

    it('an unknown format gives -', async () => {
      assert.equal(await lineFor(framework, ':date[unix]'), '-');
    });
  });
}
