// :remote-user: the user name of HTTP Basic authentication.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { frameworks, type SendOptions, send } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

async function lineFor(
  framework: (typeof frameworks)[number],
  request: SendOptions,
): Promise<string> {
  const server = await loggedServer((stream) => logger(':remote-user', { stream }), {
    framework,
  });
  try {
    await send(server, request);
    const [line] = await server.capture.waitFor(1);
    return line ?? '';
  } finally {
    await server.close();
  }
}

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

for (const framework of frameworks) {
  describe(`:remote-user in ${framework}`, () => {
    it('is the Basic-auth user', async () => {
      assert.equal(await lineFor(framework, { auth: 'tobi:secret' }), 'tobi');
    });

    it('accepts the scheme in any case', async () => {
      const header = basic('loki:pw').replace('Basic', 'bAsIc');
      assert.equal(await lineFor(framework, { headers: { authorization: header } }), 'loki');
    });

    it('is - without credentials', async () => {
      assert.equal(await lineFor(framework, {}), '-');
    });

    it('is - for another scheme', async () => {
      assert.equal(await lineFor(framework, { headers: { authorization: 'Bearer abc' } }), '-');
    });

    it('is - for an empty user name', async () => {
      assert.equal(await lineFor(framework, { headers: { authorization: basic(':pw') } }), '-');
    });

    it('is - for malformed credentials (no colon)', async () => {
      assert.equal(await lineFor(framework, { headers: { authorization: basic('nocolon') } }), '-');
    });
  });
}
