// A tiny server as an application writes it, bundled by the test into one file with esbuild
// and run from a folder holding nothing else.
import { createServer } from 'node:http';
import { destination, logger } from 'httpware/logger';

const stream = destination(process.argv[2], { batchMs: 60_000 });
const log = logger('combined', { stream });
const server = createServer((req, res) => log(req, res, () => res.end('ok')));
server.listen(0, '127.0.0.1', () => process.stderr.write(`PORT ${server.address().port}\n`));
