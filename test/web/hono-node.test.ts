// The Web suite on a Hono app on Node (@hono/node-server), logged the two ways Hono users log:
// the logger as `app.use` middleware, and `app.fetch` wrapped whole.
import { startHonoOnNode } from '../helpers/web-servers.js';
import { describeWebSuite } from './describe.js';

describeWebSuite('Hono on Node, logger as app.use middleware', () => startHonoOnNode('middleware'));
describeWebSuite('Hono on Node, app.fetch wrapped', () => startHonoOnNode('fetch'));
