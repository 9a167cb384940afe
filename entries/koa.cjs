'use strict';
// `require('httpware/koa')`: the Koa middleware object (logger, json, urlencoded, text, raw,
// bodyParser), from the one bundle the other entries share, so tokens and formats defined
// through httpware/logger are the ones the Koa logger uses.
module.exports = require('../dist/index.cjs').koa;
