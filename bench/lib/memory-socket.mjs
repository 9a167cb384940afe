// An in-memory connection for a real http.Server: the server's HTTP parser, request and
// response objects run exactly as on TCP, without the kernel's loopback cost that would
// otherwise drown the middleware's share of the time.
import { Duplex } from 'node:stream';

// Writes cross to the peer on the next turn of the event loop (setImmediate), as a socket
// read would; delivering synchronously would recurse request into response into request.
class MemorySocket extends Duplex {
  constructor() {
    super({ allowHalfOpen: true });
    this.peer = null;
    this.queue = [];
    this.scheduled = false;
    // What morgan's :remote-addr, pino-http and httpware read from a net.Socket.
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 54321;
    this.remoteFamily = 'IPv4';
    this.localAddress = '127.0.0.1';
    this.localPort = 80;
    this.encrypted = undefined;
  }

  _read() {}

  _write(chunk, _encoding, callback) {
    this.queue.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    callback();
  }

  _writev(chunks, callback) {
    for (const { chunk } of chunks) this.queue.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    callback();
  }

  flush() {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    for (const chunk of queue) this.peer.push(chunk);
  }

  _final(callback) {
    setImmediate(() => this.peer.push(null));
    callback();
  }

  // net.Socket methods node:http calls on its connections.
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  setTimeout() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  address() {
    return { address: this.localAddress, port: this.localPort, family: 'IPv4' };
  }
}

/** Returns [clientSide, serverSide]; hand serverSide to server.emit('connection', ...). */
export function memorySocketPair() {
  const client = new MemorySocket();
  const server = new MemorySocket();
  client.peer = server;
  server.peer = client;
  return [client, server];
}

const HEADER_END = Buffer.from('\r\n\r\n');
/** The end of a chunked body: the last chunk's CRLF, the zero-size chunk, no trailers. */
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

/**
 * A keep-alive client on one in-memory connection: sends `request` (a Buffer, or an array of
 * Buffers written separately, as TCP would deliver a large body in pieces), waits for the
 * response, repeats while `keepGoing()` says so. A response is counted at its header
 * terminator (with `chunked`, at the end of its chunked body); the bench's handlers answer with
 * a short body that holds no CRLFCRLF.
 */
export function startClient(server, request, keepGoing, onDone, chunked = false) {
  const end = chunked ? CHUNKED_END : HEADER_END;
  const [client, serverSide] = memorySocketPair();
  server.emit('connection', serverSide);
  const pieces = Array.isArray(request) ? request : [request];
  let responses = 0;
  let tail = Buffer.alloc(0);
  let stopped = false;

  const send = () => {
    for (const piece of pieces) client.write(piece);
  };
  client.on('data', (chunk) => {
    const data = tail.length ? Buffer.concat([tail, chunk]) : chunk;
    let from = 0;
    let found = 0;
    for (;;) {
      const at = data.indexOf(end, from);
      if (at === -1) break;
      found++;
      from = at + end.length;
    }
    tail = data.subarray(Math.max(from, data.length - (end.length - 1)));
    for (let i = 0; i < found; i++) {
      responses++;
      if (!stopped && keepGoing()) send();
      else if (!stopped) {
        stopped = true;
        client.end();
        onDone(responses);
      }
    }
  });
  send();
}
