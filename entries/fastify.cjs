'use strict';
// The Fastify plugins, from the one bundle the other entries use: the logger plugin shares
// httpware/logger's tokens and formats.
module.exports = require('../dist/index.cjs').fastify;
