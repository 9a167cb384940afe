// Express 4 is installed under the alias `express4` beside Express 5; @types/express covers both
// for what the tests use (app.use, error middleware, req.ip, req.originalUrl).
declare module 'express4' {
  import express from 'express';
  export default express;
}
