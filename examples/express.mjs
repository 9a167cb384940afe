// Express with httpware: the logger for every request, parsers per route, and Express's own
// error handling, which understands httpware's errors (status, expose, type).
import express from 'express';
import { logger, parsers } from 'httpware';

const app = express();
app.use(logger('combined'));

app.post('/api/items', parsers.json({ limit: '10kb' }), (req, res) => {
  res.status(201).json({ created: req.body });
});

app.post('/login', parsers.urlencoded({ extended: false }), (req, res) => {
  const user = typeof req.body?.user === 'string' ? req.body.user : 'stranger';
  res.send(`hello ${user}\n`);
});

// Answer parser errors as JSON; `type` is the stable name of what went wrong.
app.use((err, _req, res, next) => {
  if (!err.type) return next(err);
  res.status(err.status).json({ error: err.type, message: err.message });
});

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  process.stdout.write(`express example listening on http://localhost:${server.address().port}\n`);
});
