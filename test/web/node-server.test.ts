// The Web suite on @hono/node-server with a plain fetch handler (no Hono app).
import { createApp } from '../fixtures/web/app.js';
import { startNodeServer } from '../helpers/web-servers.js';
import { describeWebSuite } from './describe.js';

describeWebSuite('@hono/node-server on Node', () => startNodeServer(createApp().fetch));
