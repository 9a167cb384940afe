'use strict';
// The drop-in shape of `require('body-parser')`: the module is the parsers object itself.
module.exports = require('../dist/index.cjs').parsers;
