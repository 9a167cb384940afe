// The Web suite on srvx's Node adapter (a fetch handler served through node:http).
import { startSrvx } from '../helpers/web-servers.js';
import { describeWebSuite } from './describe.js';

describeWebSuite('srvx on Node', () => startSrvx());
