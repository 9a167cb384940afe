
process.env.NO_DEPRECATION = 'morgan'

var assert = require('assert')
var fs = require('fs')
var http = require('http')
var https = require('https')
var join = require('path').join
var request = require('supertest')
var split = require('split')
var Writable = require('stream').Writable

// Module under test: SUBJECT=incumbent runs the real morgan 1.12.1 (from the root's
// devDependencies), to check the reconstruction itself; otherwise httpware's built entry.
var ROOT = require('path').join(__dirname, '../../..')
var MORGAN_PATH = process.env.SUBJECT === 'incumbent'
  ? require('path').join(ROOT, 'node_modules/morgan')
  : require('path').join(ROOT, 'entries/logger.cjs')
var morgan = require(MORGAN_PATH)

describe('morgan()', function () {
  describe('arguments', function () {
    it('should use default format', function (done) {
      var cb = after(2, function (err, res, line) {
        if (err) return done(err)
        assert(res.text.length > 0)
        assert.strictEqual(line.substr(0, res.text.length), res.text)
        done()
      })

      var stream = createLineStream(function (line) {
        cb(null, null, line)
      })

      request(createServer(undefined, { stream: stream }))
        .get('/')
        .expect(200, cb)
    })

    describe('format', function () {
      it('should accept format as format name', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert(/^GET \/ 200 - - \d+\.\d{3} ms$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('tiny', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should accept format as format string', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET /')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':method :url', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should accept format as function', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / 200')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        function format (tokens, req, res) {
          return [req.method, req.url, res.statusCode].join(' ')
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should reject format as bool', function () {
        assert.throws(createServer.bind(null, true), /argument format/)
      })

      describe('back-compat', function () {
        it('should accept options object', function (done) {
          var cb = after(2, function (err, res, line) {
            if (err) return done(err)
            assert.strictEqual(line, 'GET /')
            done()
          })

          var stream = createLineStream(function (line) {
            cb(null, null, line)
          })

          request(createServer({ format: ':method :url', stream: stream }))
            .get('/')
            .expect(200, cb)
        })
      })
    })

    describe('stream', function () {
      beforeEach(function () {
        this.stdout = process.stdout
      })

      afterEach(function () {
        Object.defineProperty(process, 'stdout', {
          value: this.stdout
        })
      })

      it('should default to process.stdout', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET /')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        Object.defineProperty(process, 'stdout', {
          value: stream
        })

        request(createServer(':method :url'))
          .get('/')
          .expect(200, cb)
      })

      it('should write objects to an object-mode stream', function (done) {
        var cb = after(2, function (err, res, obj) {
          if (err) return done(err)
          assert.deepStrictEqual(obj, { method: 'GET', url: '/', status: 200 })
          done()
        })

        var stream = new Writable({
          objectMode: true,
          write: function (chunk, encoding, callback) {
            cb(null, null, chunk)
            callback()
          }
        })

        function format (tokens, req, res) {
          return { method: req.method, url: req.url, status: res.statusCode }
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should write strings with a newline to an object-mode stream', function (done) {
        var cb = after(2, function (err, res, chunk) {
          if (err) return done(err)
          assert.strictEqual(chunk, 'GET /\n')
          done()
        })

        var stream = new Writable({
          objectMode: true,
          write: function (chunk, encoding, callback) {
            cb(null, null, chunk)
            callback()
          }
        })

        request(createServer(':method :url', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe('skip', function () {
      it('should be able to skip based on request', function (done) {
        function skip (req) { return ~req.url.indexOf('skip=true') }

        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET /?skip=false')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':method :url', { skip: skip, stream: stream })

        request(server)
          .get('/?skip=true')
          .set('Connection', 'close')
          .expect(200, function (err) {
            if (err) return cb(err)
            request(server)
              .get('/?skip=false')
              .expect(200, cb)
          })
      })

      it('should be able to skip based on response', function (done) {
        function skip (req, res) { return res.statusCode === 200 }

        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET /?status=500')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':method :url', { skip: skip, stream: stream }, function (req, res, next) {
          res.statusCode = req.url === '/?status=500' ? 500 : 200
          next()
        })

        request(server)
          .get('/?status=200')
          .set('Connection', 'close')
          .expect(200, function (err) {
            if (err) return cb(err)
            request(server)
              .get('/?status=500')
              .expect(500, cb)
          })
      })
    })

    describe('buffer', function () {
      it('should flush log periodically', function (done) {
        var count = 0
        var server = createServer(':method :url', {
          buffer: true,
          stream: { write: writeLog }
        })

        function writeLog (log) {
          assert.strictEqual(log, 'GET /first\nGET /second\n')
          assert.strictEqual(count, 2)
          server.close()
          done()
        }

        server = server.listen()
        request(server)
          .get('/first')
          .expect(200, function (err) {
            if (err) throw err
            count++
            request(server)
              .get('/second')
              .expect(200, function (err) {
                if (err) throw err
                count++
              })
          })
      })

      it('should accept custom interval', function (done) {
        var count = 0
        var server = createServer(':method :url', {
          buffer: 200,
          stream: { write: writeLog }
        })

        function writeLog (log) {
          assert.strictEqual(log, 'GET /first\nGET /second\n')
          assert.strictEqual(count, 2)
          server.close()
          done()
        }

        server = server.listen()
        request(server)
          .get('/first')
          .expect(200, function (err) {
            if (err) throw err
            count++
            request(server)
              .get('/second')
              .expect(200, function (err) {
                if (err) throw err
                count++
              })
          })
      })
    })

    describe('immediate', function () {
      it('should log before response', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / -')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':method :url :res[x-sent]', { immediate: true, stream: stream })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should log after response when false', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / true')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':method :url :res[x-sent]', { immediate: false, stream: stream })

        request(server)
          .get('/')
          .expect(200, cb)
      })
    })
  })

  describe('tokens', function () {
    describe(':date', function () {
      it('should get current date in "web" format by default', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^\w{3}, \d+ \w+ \d+ \d+:\d+:\d+ \w+$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':date', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should get current date in "clf" format', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':date[clf]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should get current date in "iso" format', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':date[iso]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should get current date in "web" format', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^\w{3}, \d+ \w+ \d+ \d+:\d+:\d+ \w+$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':date[web]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should be blank for unknown format', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':date[bogus]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':http-version', function () {
      it('should be 1.0 or 1.1', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^1\.[01]$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':http-version', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':req', function () {
      it('should get request properties', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'me')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':req[x-from-string]', { stream: stream }))
          .get('/')
          .set('x-from-string', 'me')
          .expect(200, cb)
      })

      it('should be case-insensitive', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'me')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':req[X-From-String]', { stream: stream }))
          .get('/')
          .set('x-from-string', 'me')
          .expect(200, cb)
      })

      it('should display all values of array headers', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'foo=bar, fizz=buzz')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':req[set-cookie]', { stream: stream }))
          .get('/')
          .set('Set-Cookie', ['foo=bar', 'fizz=buzz'])
          .expect(200, cb)
      })

      it('should be blank for missing header', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':req[x-missing]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':res', function () {
      it('should get response properties', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'true')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':res[x-sent]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should display all values of array headers', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'foo, bar')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':res[x-keys]', { stream: stream }, function (req, res, next) {
          res.setHeader('x-keys', ['foo', 'bar'])
          next()
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should get headers only given to res.writeHead', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'bar')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':res[x-foo]', { stream: stream }, function (req, res) {
          res.writeHead(200, { 'X-Foo': 'bar' })
          res.end()
        })

        request(server)
          .get('/')
          .expect('X-Foo', 'bar')
          .expect(200, cb)
      })

      it('should get headers given to res.writeHead with a status message', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'text/plain 7')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':res[content-type] :res[content-length]', { stream: stream }, function (req, res) {
          res.writeHead(200, 'OK', { 'Content-Type': 'text/plain', 'Content-Length': '7' })
          res.end('goodbye')
        })

        request(server)
          .get('/')
          .expect(200, 'goodbye', cb)
      })

      it('should be blank before response', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':res[x-sent]', { immediate: true, stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':remote-addr', function () {
      it('should get remote address', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-addr', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should use req.ip if there', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '10.0.0.1')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':remote-addr', { stream: stream }, null, function (req) {
          req.ip = '10.0.0.1'
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should not use x-forwarded-for header', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.notStrictEqual(res.text, '10.0.0.2')
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-addr', { stream: stream }))
          .get('/')
          .set('X-Forwarded-For', '10.0.0.2')
          .expect(200, cb)
      })

      it('should work on https server', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createSecureServer(':remote-addr', { stream: stream })

        request(server)
          .get('/')
          .ca(server.cert)
          .expect(200, cb)
      })

      it('should work when connection: close', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-addr', { stream: stream }))
          .get('/')
          .set('Connection', 'close')
          .expect(200, cb)
      })

      it('should work when connection: keep-alive', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':remote-addr', { stream: stream }, function (req, res, next) {
          delete req._remoteAddress
          next()
        })

        request(server.listen())
          .get('/')
          .set('Connection', 'keep-alive')
          .expect(200, function (err, res) {
            if (err) return cb(err)
            cb(null, res, null)
            server.close()
          })
      })

      it('should work when req.ip is a getter', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '10.0.0.1')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':remote-addr', { stream: stream }, null, function (req) {
          Object.defineProperty(req, 'ip', {
            get: function () { return '10.0.0.1' }
          })
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should not fail if req.connection missing', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(res.text)
          assert.strictEqual(line, res.text)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':remote-addr', { stream: stream }, null, function (req) {
          delete req.connection
        })

        request(server)
          .get('/')
          .set('Connection', 'keep-alive')
          .expect(200, cb)
      })

      it('should be the address when the request arrived, after the socket is gone', function (done) {
        var stream = createLineStream(function (line) {
          assert.strictEqual(line, '127.0.0.1')
          server.close(done)
        })

        var server = createServer(':remote-addr', { stream: stream }, function (req) {
          test.abort()
        })

        var test = request(server).post('/')
        test.write('0')
      })
    })

    describe(':remote-user', function () {
      it('should be empty if none present', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should support Basic authorization', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'tj')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic dGo6dGVzdGluZw==')
          .expect(200, cb)
      })

      it('should be empty for empty Basic authorization user', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic Og==')
          .expect(200, cb)
      })

      it('should be empty for invalid Basic authorization', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic dGo=')
          .expect(200, cb)
      })

      it('should be empty for non-Basic authorization', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'Bearer dGo6dGVzdGluZw==')
          .expect(200, cb)
      })

      it('should accept a lower-case scheme', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'tj')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'basic dGo6dGVzdGluZw==')
          .expect(200, cb)
      })

      it('should escape the user name', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'a\\nb\\"c')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':remote-user', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic ' + Buffer.from('a\nb"c:pass').toString('base64'))
          .expect(200, cb)
      })
    })

    describe(':response-time', function () {
      it('should be in milliseconds', function (done) {
        var start = Date.now()
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var end = Date.now()
          var ms = parseFloat(line)
          assert.ok(ms > 0)
          assert.ok(ms < end - start + 1)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':response-time', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have three digits by default', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+\.[0-9]{3}$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':response-time', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have five digits with argument "5"', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+\.[0-9]{5}$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':response-time[5]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have no digits with argument "0"', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':response-time[0]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should not include response write time', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var ms = parseFloat(line)
          assert.ok(ms >= 0)
          assert.ok(ms < 1000)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':response-time', { stream: stream }, function (req, res) {
          res.write('hello, ')
          setTimeout(function () {
            res.end('world!')
          }, 1000)
        })

        request(server)
          .get('/')
          .expect(200, 'hello, world!', cb)
      })

      it('should be empty without hidden property', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':response-time', { stream: stream }, function (req, res, next) {
          delete req._startAt
          next()
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should be empty before response', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':response-time', {
          immediate: true,
          stream: stream
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should be empty if morgan invoked after response sent', function (done) {
        var cb = after(3, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var logger = morgan(':response-time', { stream: stream })

        var server = http.createServer(function (req, res) {
          res.setHeader('X-Sent', 'true')
          res.end('ok', function () {
            logger(req, res, function (err) {
              cb(err)
            })
          })
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should be empty for an aborted request without headers', function (done) {
        var stream = createLineStream(function (line) {
          assert.strictEqual(line, '-')
          server.close(done)
        })

        var server = createServer(':response-time', { stream: stream }, function () {
          test.abort()
        })

        var test = request(server).post('/')
        test.write('0')
      })
    })

    describe(':total-time', function () {
      it('should be in milliseconds', function (done) {
        var start = Date.now()
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var end = Date.now()
          var ms = parseFloat(line)
          assert.ok(ms > 0)
          assert.ok(ms < end - start + 1)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':total-time', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have three digits by default', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+\.[0-9]{3}$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':total-time', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have five digits with argument "5"', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+\.[0-9]{5}$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':total-time[5]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should have no digits with argument "0"', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.ok(/^[0-9]+$/.test(line))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':total-time[0]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should include response write time', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var ms = parseFloat(line)
          assert.ok(ms >= 1000)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':total-time', { stream: stream }, function (req, res) {
          res.write('hello, ')
          setTimeout(function () {
            res.end('world!')
          }, 1000)
        })

        request(server)
          .get('/')
          .expect(200, 'hello, world!', cb)
      })

      it('should be empty without hidden property', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':total-time', { stream: stream }, function (req, res, next) {
          delete req._startAt
          next()
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should be empty before response', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':total-time', {
          immediate: true,
          stream: stream
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should be empty if morgan invoked after response sent', function (done) {
        var cb = after(3, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var logger = morgan(':total-time', { stream: stream })

        var server = http.createServer(function (req, res) {
          res.setHeader('X-Sent', 'true')
          res.end('ok', function () {
            logger(req, res, function (err) {
              cb(err)
            })
          })
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':status', function () {
      it('should get response status', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, String(res.statusCode))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':status', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should get status given to res.writeHead', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '404')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':status', { stream: stream }, function (req, res) {
          res.writeHead(404)
          res.end()
        })

        request(server)
          .get('/')
          .expect(404, cb)
      })

      it('should not exist for aborted request', function (done) {
        var stream = createLineStream(function (line) {
          assert.strictEqual(line, '-')
          server.close(done)
        })

        var server = createServer(':status', { stream: stream }, function () {
          test.abort()
        })

        var test = request(server).post('/')
        test.write('0')
      })

      it('should not exist before response sent', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':status', {
          immediate: true,
          stream: stream
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':url', function () {
      it('should get request URL', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '/foo')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':url', { stream: stream }))
          .get('/foo')
          .expect(200, cb)
      })

      it('should use req.originalUrl if exists', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '/bar')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':url', { stream: stream }, null, function (req) {
          req.originalUrl = '/bar'
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should not exist for aborted request', function (done) {
        var stream = createLineStream(function (line) {
          assert.strictEqual(line, '- /foo')
          server.close(done)
        })

        var server = createServer(':status :url', { stream: stream }, function () {
          test.abort()
        })

        var test = request(server).post('/foo')
        test.write('0')
      })

      it('should escape quotes and backslashes', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '/a\\"b\\\\c')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':url', { stream: stream }, null, function (req) {
          req.url = '/a"b\\c'
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should escape control characters', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '/a\\nb\\rc\\td\\u001be\\u007ff\\u0085g\\u2028h\\u2029i\\b\\f\\u0000')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':url', { stream: stream }, null, function (req) {
          req.originalUrl = '/a\nb\rc\td\u001be\u007ff\u0085g\u2028h\u2029i\b\f\u0000'
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should escape raw URL bytes', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '/x\\"{|}')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer(':url', { stream: stream })
        server.listen(0, '127.0.0.1', function () {
          var req = http.request({
            host: '127.0.0.1',
            port: server.address().port,
            path: '/x"{|}'
          }, function (res) {
            res.resume()
            res.on('end', function () {
              server.close()
              cb(null, res, null)
            })
          })
          req.end()
        })
      })
    })

    describe(':user-agent', function () {
      it('should get request user-agent', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'tobi')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':user-agent', { stream: stream }))
          .get('/')
          .set('User-Agent', 'tobi')
          .expect(200, cb)
      })

      it('should escape quotes', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'my \\"agent\\" \\\\')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':user-agent', { stream: stream }))
          .get('/')
          .set('User-Agent', 'my "agent" \\')
          .expect(200, cb)
      })
    })

    describe(':referrer', function () {
      it('should get request referrer', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'http://localhost/')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':referrer', { stream: stream }))
          .get('/')
          .set('Referer', 'http://localhost/')
          .expect(200, cb)
      })

      it('should accept misspelled referrer header', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'http://localhost/')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':referrer', { stream: stream }))
          .get('/')
          .set('Referrer', 'http://localhost/')
          .expect(200, cb)
      })

      it('should be blank when missing', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '-')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':referrer', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':pid', function () {
      it('should get process id', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, String(process.pid))
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':pid', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe(':method', function () {
      it('should get request method', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'POST')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':method', { stream: stream }))
          .post('/')
          .expect(200, cb)
      })
    })
  })

  describe('formats', function () {
    describe('a function', function () {
      it('should log result of function', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / 200')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        function format (tokens, req, res) {
          return [req.method, req.url, res.statusCode].join(' ')
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should not log for undefined return', function (done) {
        var stream = createLineStream(function () {
          throw new Error('should not log line')
        })

        function format (tokens, req, res) {
          return undefined
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, done)
      })

      it('should not log for null return', function (done) {
        var stream = createLineStream(function () {
          throw new Error('should not log line')
        })

        function format (tokens, req, res) {
          return null
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, done)
      })

      it('should log an empty string as an empty line', function (done) {
        var chunks = []
        var cb = after(2, function (err, res) {
          if (err) return done(err)
          assert.deepStrictEqual(chunks, ['\n'])
          done()
        })

        var stream = {
          write: function (chunk) {
            chunks.push(chunk)
            cb(null, null, chunk)
          }
        }

        function format (tokens, req, res) {
          return ''
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should pass tokens object with every token', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / 200 true tobi')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        function format (tokens, req, res) {
          return [
            tokens.method(req, res),
            tokens.url(req, res),
            tokens.status(req, res),
            tokens.res(req, res, 'x-sent'),
            tokens['user-agent'](req, res)
          ].join(' ')
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .set('User-Agent', 'tobi')
          .expect(200, cb)
      })

      it('should get escaped token values', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'a\\"b\\\\c')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        function format (tokens, req, res) {
          return tokens['user-agent'](req, res)
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .set('User-Agent', 'a"b\\c')
          .expect(200, cb)
      })

      it('should be able to use morgan.compile', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET / 200 extra')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var base = morgan.compile(':method :url :status')

        function format (tokens, req, res) {
          return base(tokens, req, res) + ' extra'
        }

        request(createServer(format, { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe('a string', function () {
      it('should accept format as format string of tokens', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET /')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':method :url', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should accept text mixed with tokens', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'method=GET url=/')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('method=:method url=:url', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should accept special characters', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'LOG: GET\t"/" \\ \'x\' \u2028')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('LOG: :method\t":url" \\ \'x\' \u2028', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should not be vulnerable to code injection', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '" + process.exit(1) + " GET')
          assert.strictEqual(global.__morganInjected, undefined)
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('" + process.exit(1) + " :method', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should ignore tokens with one character names', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, ':a GET')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':a :method', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should treat a token argument up to the first "]"', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'me]')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':req[x-from-string]]', { stream: stream }))
          .get('/')
          .set('x-from-string', 'me')
          .expect(200, cb)
      })

      it('should keep an empty bracket as text', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, 'GET[]')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer(':method[]', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should not escape literal text', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          assert.strictEqual(line, '"GET" \\"/\\"')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('":method" \\":url\\"', { stream: stream }, null, function (req) {
          req.url = '/'
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })
    })

    describe('combined', function () {
      it('should match expectations', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\[([^\]]+)\]/, function (s, date) {
            assert.ok(/^\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/.test(date))
            return '[_date_]'
          })
          assert.strictEqual(masked, res.text + ' - tj [_date_] "GET / HTTP/1.1" 200 - "http://localhost/" "my-ua"')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('combined', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic dGo6dGVzdGluZw==')
          .set('Referer', 'http://localhost/')
          .set('User-Agent', 'my-ua')
          .expect(200, cb)
      })

      it('should escape quotes in fields', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\[([^\]]+)\]/, '[_date_]')
          assert.strictEqual(masked, res.text + ' - - [_date_] "GET / HTTP/1.1" 200 - "http://x/\\"" "my \\"ua\\""')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('combined', { stream: stream }))
          .get('/')
          .set('Referer', 'http://x/"')
          .set('User-Agent', 'my "ua"')
          .expect(200, cb)
      })
    })

    describe('common', function () {
      it('should match expectations', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\[([^\]]+)\]/, function (s, date) {
            assert.ok(/^\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/.test(date))
            return '[_date_]'
          })
          assert.strictEqual(masked, res.text + ' - tj [_date_] "GET / HTTP/1.1" 200 -')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('common', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic dGo6dGVzdGluZw==')
          .expect(200, cb)
      })
    })

    describe('default', function () {
      it('should match expectations', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\[([^\]]+)\]/, function (s, date) {
            assert.ok(/^\w{3}, \d+ \w+ \d+ \d+:\d+:\d+ \w+$/.test(date))
            return '[_date_]'
          })
          assert.strictEqual(masked, res.text + ' - tj [_date_] "GET / HTTP/1.1" 200 - "http://localhost/" "my-ua"')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('default', { stream: stream }))
          .get('/')
          .set('Authorization', 'Basic dGo6dGVzdGluZw==')
          .set('Referer', 'http://localhost/')
          .set('User-Agent', 'my-ua')
          .expect(200, cb)
      })
    })

    describe('dev', function () {
      it('should not color 1xx', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked.substr(0, 37), '_color_0_GET / _color_0_102_color_0_ ')
          assert.strictEqual(masked.substr(-9), '_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res, next) {
          res.statusCode = 102
          next()
        })

        rawRequest(server, function (err) { cb(err) })
      })

      it('should color 2xx green', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked.substr(0, 38), '_color_0_GET / _color_32_200_color_0_ ')
          assert.strictEqual(masked.substr(-9), '_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res, next) {
          res.statusCode = 200
          next()
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })

      it('should color 3xx cyan', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked.substr(0, 38), '_color_0_GET / _color_36_300_color_0_ ')
          assert.strictEqual(masked.substr(-9), '_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res, next) {
          res.statusCode = 300
          next()
        })

        request(server)
          .get('/')
          .expect(300, cb)
      })

      it('should color 4xx yelow', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked.substr(0, 38), '_color_0_GET / _color_33_400_color_0_ ')
          assert.strictEqual(masked.substr(-9), '_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res, next) {
          res.statusCode = 400
          next()
        })

        request(server)
          .get('/')
          .expect(400, cb)
      })

      it('should color 5xx red', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked.substr(0, 38), '_color_0_GET / _color_31_500_color_0_ ')
          assert.strictEqual(masked.substr(-9), '_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res, next) {
          res.statusCode = 500
          next()
        })

        request(server)
          .get('/')
          .expect(500, cb)
      })

      it('should match full line', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line
            .replace(/\x1b\[(\d+)m/g, '_color_$1_')
            .replace(/ \d+\.\d{3} ms/, ' _timer_ ms')
          assert.strictEqual(masked, '_color_0_GET /foo _color_32_200_color_0_ _timer_ ms - 2_color_0_')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('dev', { stream: stream }, function (req, res) {
          res.setHeader('Content-Length', '2')
          res.end('ok')
        })

        request(server)
          .get('/foo')
          .expect(200, cb)
      })

      it('should not color when no response sent', function (done) {
        var stream = createLineStream(function (line) {
          var masked = line
            .replace(/\x1b\[(\d+)m/g, '_color_$1_')
          assert.strictEqual(masked, '_color_0_POST / _color_0_-_color_0_ - ms - -_color_0_')
          server.close(done)
        })

        var server = createServer('dev', { stream: stream }, function () {
          test.abort()
        })

        var test = request(server).post('/')
        test.write('0')
      })

      describe('with "immediate: true"', function () {
        it('should not have color or response values', function (done) {
          var cb = after(2, function (err, res, line) {
            if (err) return done(err)
            var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
            assert.strictEqual(masked, '_color_0_GET / _color_0_-_color_0_ - ms - -_color_0_')
            done()
          })

          var stream = createLineStream(function (line) {
            cb(null, null, line)
          })

          var server = createServer('dev', { immediate: true, stream: stream }, function (req, res, next) {
            res.statusCode = 500
            next()
          })

          request(server)
            .get('/')
            .expect(500, cb)
        })
      })

      describe('with NO_COLOR', function () {
        var original
        var nocolor

        beforeEach(function () {
          original = process.env.NO_COLOR
          process.env.NO_COLOR = '1'
          clearRequireCache()
          nocolor = require(MORGAN_PATH)
        })

        afterEach(function () {
          if (original === undefined) delete process.env.NO_COLOR
          else process.env.NO_COLOR = original
          clearRequireCache()
        })

        it('should not contain escape sequences', function (done) {
          var cb = after(2, function (err, res, line) {
            if (err) return done(err)
            assert.ok(line.indexOf('\x1b') === -1)
            assert.ok(/^GET \/ 500 \d+\.\d{3} ms - -$/.test(line))
            done()
          })

          var stream = createLineStream(function (line) {
            cb(null, null, line)
          })

          var server = createServer('dev', { stream: stream }, function (req, res, next) {
            res.statusCode = 500
            next()
          }, null, nocolor)

          request(server)
            .get('/')
            .expect(500, cb)
        })
      })

      describe('with empty NO_COLOR', function () {
        var original
        var color

        beforeEach(function () {
          original = process.env.NO_COLOR
          process.env.NO_COLOR = ''
          clearRequireCache()
          color = require(MORGAN_PATH)
        })

        afterEach(function () {
          if (original === undefined) delete process.env.NO_COLOR
          else process.env.NO_COLOR = original
          clearRequireCache()
        })

        it('should contain escape sequences', function (done) {
          var cb = after(2, function (err, res, line) {
            if (err) return done(err)
            var masked = line.replace(/\x1b\[(\d+)m/g, '_color_$1_')
            assert.strictEqual(masked.substr(0, 38), '_color_0_GET / _color_31_500_color_0_ ')
            done()
          })

          var stream = createLineStream(function (line) {
            cb(null, null, line)
          })

          var server = createServer('dev', { stream: stream }, function (req, res, next) {
            res.statusCode = 500
            next()
          }, null, color)

          request(server)
            .get('/')
            .expect(500, cb)
        })
      })
    })

    describe('short', function () {
      it('should match expectations', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\d+\.\d{3} ms/, '_timer_ ms')
          assert.strictEqual(masked, res.text + ' - GET / HTTP/1.1 200 - - _timer_ ms')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('short', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })
    })

    describe('tiny', function () {
      it('should match expectations', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\d+\.\d{3} ms/, '_timer_ ms')
          assert.strictEqual(masked, 'GET / 200 - - _timer_ ms')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        request(createServer('tiny', { stream: stream }))
          .get('/')
          .expect(200, cb)
      })

      it('should log content-length', function (done) {
        var cb = after(2, function (err, res, line) {
          if (err) return done(err)
          var masked = line.replace(/\d+\.\d{3} ms/, '_timer_ ms')
          assert.strictEqual(masked, 'GET / 200 2 - _timer_ ms')
          done()
        })

        var stream = createLineStream(function (line) {
          cb(null, null, line)
        })

        var server = createServer('tiny', { stream: stream }, function (req, res) {
          res.setHeader('Content-Length', 2)
          res.end('ok')
        })

        request(server)
          .get('/')
          .expect(200, cb)
      })
    })
  })
})

describe('morgan.compile(format)', function () {
  describe('arguments', function () {
    describe('format', function () {
      it('should be required', function () {
        assert.throws(morgan.compile.bind(morgan), /argument format/)
      })

      it('should reject functions', function () {
        assert.throws(morgan.compile.bind(morgan, function () {}), /argument format/)
      })

      it('should reject numbers', function () {
        assert.throws(morgan.compile.bind(morgan, 42), /argument format/)
      })

      it('should throw a TypeError', function () {
        assert.throws(morgan.compile.bind(morgan, 42), TypeError)
      })

      it('should compile a string into a function', function () {
        var fn = morgan.compile(':method')
        assert.ok(typeof fn === 'function')
        assert.ok(fn.length === 3)
      })
    })
  })

  describe('compiled function', function () {
    it('should call tokens from the given object', function () {
      var fn = morgan.compile(':method :url')
      var tokens = {
        method: function (req) { return req.method },
        url: function (req) { return req.url }
      }
      assert.strictEqual(fn(tokens, { method: 'GET', url: '/x' }, {}), 'GET /x')
    })

    it('should pass token arguments as strings', function () {
      var args = []
      var fn = morgan.compile(':foo[bar] :foo[5] :foo')
      var tokens = {
        foo: function (req, res, arg) {
          args.push(arguments.length === 3 ? arg : 'none')
          return 'x'
        }
      }
      assert.strictEqual(fn(tokens, {}, {}), 'x x x')
      assert.deepStrictEqual(args, ['bar', '5', 'none'])
    })

    it('should parse hyphenated and underscored token names', function () {
      var fn = morgan.compile(':a-b :c_d :e1')
      var tokens = {
        'a-b': function () { return '1' },
        c_d: function () { return '2' },
        e1: function () { return '3' }
      }
      assert.strictEqual(fn(tokens, {}, {}), '1 2 3')
    })

    it('should use "-" for falsy token values', function () {
      var fn = morgan.compile(':aa :bb :cc :dd')
      var tokens = {
        aa: function () { return undefined },
        bb: function () { return null },
        cc: function () { return '' },
        dd: function () { return 0 }
      }
      assert.strictEqual(fn(tokens, {}, {}), '- - - -')
    })

    it('should not change non-string values', function () {
      var fn = morgan.compile(':aa :bb')
      var tokens = {
        aa: function () { return 42 },
        bb: function () { return true }
      }
      assert.strictEqual(fn(tokens, {}, {}), '42 true')
    })

    it('should not escape values of tokens in a given object', function () {
      var fn = morgan.compile(':aa')
      var tokens = {
        aa: function () { return 'a"b\nc' }
      }
      assert.strictEqual(fn(tokens, {}, {}), 'a"b\nc')
    })

    it('should keep literal quotes, backslashes and newlines', function () {
      var fn = morgan.compile('"a" \\ \n \u2028 :aa')
      var tokens = {
        aa: function () { return 'x' }
      }
      assert.strictEqual(fn(tokens, {}, {}), '"a" \\ \n \u2028 x')
    })

    it('should pass special characters in arguments as morgan does', function () {
      var args = []
      var fn = morgan.compile(':aa[a"b] :aa[c\\d]')
      var tokens = {
        aa: function (req, res, arg) { args.push(arg); return 'x' }
      }
      assert.strictEqual(fn(tokens, {}, {}), 'x x')
      assert.deepStrictEqual(args, ['a\\"b', 'c\\\\d'])
    })
  })
})

describe('morgan.format(name, format)', function () {
  it('should return morgan for chaining', function () {
    assert.strictEqual(morgan.format('compat-test-format', ':method'), morgan)
  })

  it('should register a format string by name', function (done) {
    morgan.format('compat-test-a', ':method :url!')

    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'GET /!')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    request(createServer('compat-test-a', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should register a format function by name', function (done) {
    morgan.format('compat-test-b', function (tokens, req, res) {
      return 'fn ' + tokens.method(req, res)
    })

    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'fn GET')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    request(createServer('compat-test-b', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should replace an existing format', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'v2 GET')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.format('compat-test-c', 'v1 :method')
    morgan.format('compat-test-c', 'v2 :method')

    request(createServer('compat-test-c', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })
})

describe('morgan.token(name, function)', function () {
  it('should return morgan for chaining', function () {
    assert.strictEqual(morgan.token('compat-test-token', function () { return 'x' }), morgan)
  })

  it('should support chaining', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'one two')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan
      .token('compat-one', function () { return 'one' })
      .token('compat-two', function () { return 'two' })

    request(createServer(':compat-one :compat-two', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should define a token with argument', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'hello world')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.token('compat-echo', function (req, res, arg) { return arg })

    request(createServer(':compat-echo[hello] :compat-echo[world]', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should be available to format functions', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'fn-token')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.token('compat-fn', function () { return 'fn-token' })

    function format (tokens, req, res) {
      return tokens['compat-fn'](req, res)
    }

    request(createServer(format, { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should escape string values', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'a\\nb\\r\\t\\b\\f\\\\ \\"q\\" \\u001b[31m \\u0000 \\u007f \\u009b \\u2028\\u2029')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.token('compat-evil', function () {
      return 'a\nb\r\t\b\f\\ "q" \u001b[31m \u0000 \u007f \u009b \u2028\u2029'
    })

    request(createServer(':compat-evil', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should not escape non-string values', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, '42 true')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.token('compat-num', function () { return 42 })
    morgan.token('compat-bool', function () { return true })

    request(createServer(':compat-num :compat-bool', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should call the token with tokens as this', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'GET!')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    morgan.token('compat-this', function (req, res) {
      return this.method(req, res) + '!'
    })

    request(createServer(':compat-this', { stream: stream }))
      .get('/')
      .expect(200, cb)
  })

  it('should override a built-in token', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'custom-method')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    var original = morgan.compile(':method')
    morgan.token('method', function () { return 'custom-method' })

    request(createServer(':method', { stream: stream }))
      .get('/')
      .expect(200, function (err, res) {
        morgan.token('method', function (req) { return req.method })
        assert.ok(original)
        cb(err, res)
      })
  })

  it('should be used by formats defined before the token', function (done) {
    var cb = after(2, function (err, res, line) {
      if (err) return done(err)
      assert.strictEqual(line, 'late')
      done()
    })

    var stream = createLineStream(function (line) {
      cb(null, null, line)
    })

    var server = createServer(':compat-late', { stream: stream })
    morgan.token('compat-late', function () { return 'late' })

    request(server)
      .get('/')
      .expect(200, cb)
  })
})

function after (count, callback) {
  var args = new Array(3)
  var i = 0

  return function (err, arg1, arg2) {
    assert.ok(i++ < count, 'callback called ' + count + ' times')

    args[0] = args[0] || err
    args[1] = args[1] || arg1
    args[2] = args[2] || arg2

    if (count === i) {
      callback.apply(null, args)
    }
  }
}

function clearRequireCache () {
  Object.keys(require.cache).forEach(function (key) {
    if (key.indexOf(ROOT) === 0 && key.indexOf('compat') === -1) delete require.cache[key]
  })
}

function createLineStream (callback) {
  return split().on('data', callback)
}

function createServer (format, opts, fn, fn1, mod) {
  var logger = (mod || morgan)(format, opts)
  var middle = fn || noopMiddleware

  return http.createServer(function onRequest (req, res) {
    // prior alterations
    if (fn1) {
      fn1(req, res)
    }

    logger(req, res, function onNext (err) {
      // allow req, res alterations
      middle(req, res, function onDone () {
        if (err) {
          res.statusCode = 500
          res.end(err.message)
        }

        res.setHeader('X-Sent', 'true')
        res.end((req.connection && req.connection.remoteAddress) || '-')
      })
    })
  })
}

function createSecureServer (format, opts, fn, fn1) {
  var cert = fs.readFileSync(join(__dirname, 'fixtures', 'cert.pem'), 'ascii')
  var key = fs.readFileSync(join(__dirname, 'fixtures', 'key.pem'), 'ascii')

  var logger = morgan(format, opts)
  var middle = fn || noopMiddleware

  var server = https.createServer({
    cert: cert,
    key: key
  }, function onRequest (req, res) {
    // prior alterations
    if (fn1) {
      fn1(req, res)
    }

    logger(req, res, function onNext (err) {
      // allow req, res alterations
      middle(req, res, function onDone () {
        if (err) {
          res.statusCode = 500
          res.end(err.message)
        }

        res.setHeader('X-Sent', 'true')
        res.end((req.connection && req.connection.remoteAddress) || '-')
      })
    })
  })

  server.cert = cert

  return server
}

// A request through a raw socket, for responses a client library would not
// accept (a 1xx status as the final response). Calls back when the server
// closed the connection.
function rawRequest (server, callback) {
  var net = require('net')
  server.listen(0, '127.0.0.1', function () {
    var socket = net.connect(server.address().port, '127.0.0.1', function () {
      socket.end('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    })
    socket.resume()
    socket.on('close', function () {
      server.close()
      callback(null)
    })
    socket.on('error', callback)
  })
}

function noopMiddleware (req, res, next) {
  next()
}
