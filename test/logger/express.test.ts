// What Express computes for the request reaches the line: req.ip (with "trust proxy") for
// :remote-addr and req.originalUrl (inside a mounted router) for :url.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import express5 from 'express';
import express4 from 'express4';
import { logger } from '../../src/logger/index.js';
import { captureLines, send } from '../helpers/index.js';
import { listen } from '../helpers/logger.js';

for (const [name, express] of [
  ['express4', express4],
  ['express5', express5],
] as const) {
  describe(`req.ip and req.originalUrl set by ${name}`, () => {
    it(':remote-addr is req.ip, the X-Forwarded-For client when proxies are trusted', async () => {
      const capture = captureLines();
      const app = express();
      app.set('trust proxy', true);
      app.use(logger(':remote-addr', { stream: capture.stream }));
      app.get('/', (_req, res) => {
        res.send('ok');
      });
      const server = await listen(app);
      try {
        await send(server, { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' } });
        assert.deepEqual(await capture.waitFor(1), ['203.0.113.7']);
      } finally {
        await server.close();
      }
    });

    it('takes the logger, with or without exclude, as a middleware and not an error handler', async () => {
      // Express calls a function of four parameters only with an error: the logger has three.
      const capture = captureLines();
      const app = express();
      app.use(logger(':url', { stream: capture.stream }));
      app.use(
        logger('excluding :url', { stream: capture.stream, exclude: { paths: ['/health'] } }),
      );
      app.get(['/', '/health'], (_req, res) => {
        res.send('ok');
      });
      const server = await listen(app);
      try {
        await send(server, { path: '/health' });
        await send(server, { path: '/' });
        assert.deepEqual([...(await capture.waitFor(3))].sort(), ['/', '/health', 'excluding /']);
      } finally {
        await server.close();
      }
    });

    it(':url is req.originalUrl inside a mounted router', async () => {
      const capture = captureLines();
      const app = express();
      const router = express.Router();
      router.use(logger(':url', { stream: capture.stream }));
      router.get('/items/:id', (req, res) => {
        res.send(req.url);
      });
      app.use('/api', router);
      const server = await listen(app);
      try {
        const reply = await send(server, { path: '/api/items/7?full=1' });
        assert.equal(reply.text, '/items/7?full=1', 'the router saw the shortened url');
        assert.deepEqual(await capture.waitFor(1), ['/api/items/7?full=1']);
      } finally {
        await server.close();
      }
    });

    it(':status is the status Express sent, including its 404', async () => {
      const capture = captureLines();
      const app = express();
      app.use(logger(':method :url :status', { stream: capture.stream }));
      const server = await listen(app);
      try {
        await send(server, { path: '/nowhere' });
        assert.deepEqual(await capture.waitFor(1), ['GET /nowhere 404']);
      } finally {
        await server.close();
      }
    });
  });
}
