// A parser timed by itself: each request is a real http.IncomingMessage, its headers added as
// node:http's parser adds them and its body pushed into it as socket reads would, but with no
// http.Server, no parsing of the wire and no response. A whole round trip costs several times
// what a small body's parsing does, and dilutes every difference between parsers by as much:
// json 100 B measured 1.00-1.05x the floor through a server and 1.14-1.24x alone (issue 33).
import http from 'node:http';
import { PassThrough } from 'node:stream';

// Body pieces as a socket hands them over: 64 KiB reads.
const PIECE = 64 * 1024;

/** The case's request as header lines (name, value, ...) and body pieces. */
function requestParts(c) {
  const raw = [
    'Host',
    'bench.local',
    'Content-Type',
    c.type,
    'Content-Length',
    String(c.body.length),
    'Connection',
    'keep-alive',
  ];
  if (c.encoding) raw.push('Content-Encoding', c.encoding);
  const pieces = [];
  for (let at = 0; at < c.body.length; at += PIECE) pieces.push(c.body.subarray(at, at + PIECE));
  return { raw, pieces };
}

/**
 * A driver of `middleware` for case `c`: `start(keepGoing, onDone)` runs requests one after
 * another (the next one in the tick after `next` was called), while keepGoing() says so, then
 * calls onDone(requests, error?); `onBody` sees each request's `req.body`.
 */
export function parserAlone(middleware, c, onBody = () => {}) {
  // One connection for every request, as keep-alive requests share theirs. A readable stream:
  // parsers read `socket.readable` (on-finished's test); nothing is ever written to it.
  const socket = new PassThrough();
  socket.remoteAddress = '127.0.0.1';
  socket.remotePort = 54321;
  const res = new http.ServerResponse(new http.IncomingMessage(socket));
  const { raw, pieces } = requestParts(c);

  const request = () => {
    const req = new http.IncomingMessage(socket);
    req.method = 'POST';
    req.url = '/submit';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    // What node:http's parser does once a head is read: `req.headers` is then built from
    // these lines on first read, as on a real connection.
    req._addHeaderLines(raw, raw.length);
    return req;
  };

  return function start(keepGoing, onDone) {
    let requests = 0;
    const one = () => {
      const req = request();
      middleware(req, res, (err) => {
        requests++;
        if (err) {
          onDone(requests, err);
          return;
        }
        onBody(req.body);
        if (keepGoing()) process.nextTick(one);
        // The last request's own trailing ticks (listeners removed, `end` emitted) included.
        else setImmediate(onDone, requests);
      });
      for (const piece of pieces) req.push(piece);
      req.complete = true;
      req.push(null);
    };
    one();
  };
}
