// Run by logger-load.test.ts: logs with `immediate` to the default stream (stdout), then
// crashes on the first request, right after the logger saw it. Prints its port on stderr.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSubject } from '../../helpers/hostile.js';

const { logger } = await loadSubject();
const log = logger(':method :url immediate', { immediate: true });
const server = http.createServer((req, res) => {
  log(req, res, () => {
    // The application fails hard before answering: an uncaught exception ends the process.
    throw new Error('crash right after arrival');
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`port ${(server.address() as AddressInfo).port}\n`);
});
