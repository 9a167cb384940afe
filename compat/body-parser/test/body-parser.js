'use strict'

var assert = require('node:assert')
var http = require('node:http')
var request = require('supertest')

var bodyParser = require('./support/env')

describe('bodyParser()', function () {
  it('should throw an error', function () {
    assert.throws(bodyParser, /bodyParser\(\) generic has been split/)
  })
})

describe('bodyParser', function () {
  it('should expose json', function () {
    assert.strictEqual(typeof bodyParser.json, 'function')
  })

  it('should expose raw', function () {
    assert.strictEqual(typeof bodyParser.raw, 'function')
  })

  it('should expose text', function () {
    assert.strictEqual(typeof bodyParser.text, 'function')
  })

  it('should expose urlencoded', function () {
    assert.strictEqual(typeof bodyParser.urlencoded, 'function')
  })

  it('should return middleware of arity 3', function () {
    assert.strictEqual(bodyParser.json().length, 3)
    assert.strictEqual(bodyParser.raw().length, 3)
    assert.strictEqual(bodyParser.text().length, 3)
    assert.strictEqual(bodyParser.urlencoded().length, 3)
  })

  it('should create parsers without options', function () {
    bodyParser.json()
    bodyParser.raw()
    bodyParser.text()
    bodyParser.urlencoded()
  })

  it('should reject an invalid limit', function () {
    assert.throws(function () { bodyParser.raw({ limit: 'lots' }) },
      /TypeError: option limit "lots" is invalid/)
  })
})

describe('bodyParser.json() and bodyParser.urlencoded() together', function () {
  before(function () {
    var jsonParser = bodyParser.json()
    var urlencodedParser = bodyParser.urlencoded()

    this.server = http.createServer(function (req, res) {
      jsonParser(req, res, function (err) {
        if (err) return error(res, err)
        urlencodedParser(req, res, function (err) {
          if (err) return error(res, err)
          res.statusCode = 200
          res.end(JSON.stringify(req.body))
        })
      })
    })
  })

  it('should default req.body to undefined', function (done) {
    request(this.server)
      .get('/')
      .expect(200, '', done)
  })

  it('should parse JSON', function (done) {
    request(this.server)
      .post('/')
      .set('Content-Type', 'application/json')
      .send('{"user":"tobi"}')
      .expect(200, '{"user":"tobi"}', done)
  })

  it('should parse x-www-form-urlencoded', function (done) {
    request(this.server)
      .post('/')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('user=tobi')
      .expect(200, '{"user":"tobi"}', done)
  })

  it('should leave an unknown type alone', function (done) {
    request(this.server)
      .post('/')
      .set('Content-Type', 'text/plain')
      .send('user is tobi')
      .expect(200, '', done)
  })

  describe('http methods', function () {
    before(function () {
      var jsonParser = bodyParser.json()

      this.server = http.createServer(function (req, res) {
        jsonParser(req, res, function (err) {
          if (err) {
            res.statusCode = 500
            res.end(err.message)
            return
          }

          res.statusCode = req.body && req.body.user === 'tobi'
            ? 201
            : 400
          res.end()
        })
      })
    })

    ;['delete', 'options', 'patch', 'post', 'put', 'search'].forEach(function (method) {
      it('should support ' + method.toUpperCase() + ' requests', function (done) {
        request(this.server)[method === 'search' ? 'search' : method]('/')
          .set('Content-Type', 'application/json')
          .send('{"user":"tobi"}')
          .expect(201, done)
      })
    })
  })
})

function error (res, err) {
  res.statusCode = err.status || 500
  res.end('[' + err.type + '] ' + err.message)
}
