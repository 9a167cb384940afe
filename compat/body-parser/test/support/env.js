'use strict'
// Module under test: $SUBJECT=incumbent runs the real body-parser 2.4.0 (from the root's
// devDependencies), to check the reconstruction itself; otherwise httpware's built CommonJS entry.
const path = require('node:path')
const root = path.join(__dirname, '../../../..')
module.exports = require(
  process.env.SUBJECT === 'incumbent'
    ? path.join(root, 'node_modules/body-parser')
    : path.join(root, 'entries/parsers.cjs')
)
