// The client of a count over real loopback TCP (count-run.mjs with `tcp`), in its own process
// so that callgrind counts the server alone: one keep-alive connection, each request written
// whole once the previous response has come (as autocannon does with one connection), then
// exit. argv: port, request count; the request's bytes come as the first IPC message.
import net from 'node:net';

const port = Number(process.argv[2]);
const total = Number(process.argv[3]);
const HEADER_END = Buffer.from('\r\n\r\n');

process.once('message', (encoded) => {
  const request = Buffer.from(encoded, 'base64');
  const socket = net.connect(port, '127.0.0.1');
  let sent = 0;
  let answered = 0;
  let tail = Buffer.alloc(0);
  const send = () => {
    sent++;
    socket.write(request);
  };
  socket.on('connect', send);
  // Every response is a head and `ok`: one header end each.
  socket.on('data', (chunk) => {
    const data = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
    let from = 0;
    // The count is of bodies parsed: a server answering anything else stops it.
    if (answered === 0 && from === 0 && !data.toString('latin1', 0, 12).endsWith(' 200')) {
      console.error(`tcp-client: ${data.toString('latin1', 0, 40)}`);
      process.exit(1);
    }
    for (let at = data.indexOf(HEADER_END); at !== -1; at = data.indexOf(HEADER_END, from)) {
      from = at + HEADER_END.length;
      answered++;
      if (sent < total) send();
      else if (answered === total) socket.end();
    }
    tail = data.subarray(Math.max(from, data.length - (HEADER_END.length - 1)));
  });
  socket.on('close', () => process.disconnect());
});
