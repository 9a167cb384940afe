// The body size of a response that announced no length is the bytes the application wrote,
// counted as Node sends them: a client cannot make it understate what was sent (a body of
// 4-byte characters is not its UTF-16 length) nor set it through what it sends (a length it
// claims, echoed by the application in another header).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logger } from '../../src/logger/index.js';
import { type Handler, send, type Transport } from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';

const BODY = `${'😀'.repeat(50)}é`;
const BYTES = Buffer.byteLength(BODY);

/** Echoes the request's body as text, chunk by chunk, and the length the client claims. */
const echo: Handler = (req, res) => {
  res.setHeader('x-claimed-length', String(req.headers['x-claimed-length']));
  req.setEncoding('utf8');
  req.on('data', (text: string) => res.write(text));
  req.on('end', () => res.end());
};

for (const transport of ['http', 'h2'] as const satisfies readonly Transport[]) {
  describe(`an echoed body over ${transport}`, () => {
    for (const format of [':res-body-bytes', 'json', 'ecs']) {
      it(`is logged by ${format} as the bytes sent, whatever the client claims`, async () => {
        const server = await loggedServer((stream) => logger(format, { stream }), {
          handler: echo,
          transport,
        });
        try {
          const reply = await send(server, {
            method: 'POST',
            headers: { 'x-claimed-length': '1' },
            body: [BODY.slice(0, 20), BODY.slice(20)],
          });
          assert.equal(Buffer.byteLength(reply.body), BYTES);
          assert.equal(reply.headers['content-length'], undefined);
          const [line] = await server.capture.waitFor(1);
          const size =
            format === 'json'
              ? JSON.parse(line as string)['http.response.body.size']
              : format === 'ecs'
                ? JSON.parse(line as string)['http.response.body.bytes']
                : Number(line);
          assert.equal(size, BYTES);
        } finally {
          await server.close();
        }
      });
    }
  });
}
