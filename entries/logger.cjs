'use strict';
// The drop-in shape of `require('morgan')`: the module is the logger function itself.
module.exports = require('../dist/index.cjs').logger;
