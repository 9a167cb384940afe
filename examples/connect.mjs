// Connect with httpware: `require('httpware/logger')` and `require('httpware/parsers')` are
// drop-in replacements for morgan and body-parser.
import { createRequire } from 'node:module';
import connect from 'connect';

const require = createRequire(import.meta.url);
const logger = require('httpware/logger');
const parsers = require('httpware/parsers');

logger.token('body-length', (req) =>
  typeof req.body === 'string' ? String(req.body.length) : undefined,
);

const app = connect()
  .use(parsers.text({ type: 'text/*' }))
  .use(logger(':method :url :status :body-length chars'))
  .use((req, res) => {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(`you sent ${req.body?.length ?? 0} characters\n`);
  });

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`connect example listening on http://localhost:${server.address().port}\n`);
});
