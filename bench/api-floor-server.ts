// The floor for serving the API load: a minimal HTTP/1.1 server in its own process answering two fixed bodies, no parsing beyond the path.
// Usage: node dist/bench/api-floor-server.js <list-body-file> <room-body-file>; prints its port, serves until killed.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/*
 * Why: bench/api-scale.ts compares the recorder's CPU with and without 500 GETs a second. This server does the least
 * any server in any process can do for the same requests (read, find the blank line, write a cached response), so
 * its CPU under the same load, measured while the recording runs, is what the kernel and the event loop alone cost
 * on the machine. It is not an HTTP server to use: it trusts its client completely.
 */
const list = readFileSync(process.argv[2]!);
const room = readFileSync(process.argv[3]!);
const head = (b: Buffer): Buffer => Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${b.length}\r\nConnection: keep-alive\r\n\r\n`);
const answers = { list: Buffer.concat([head(list), list]), room: Buffer.concat([head(room), room]) };

const server = createServer({ noDelay: true }, (socket) => {
  let pending = '';
  socket.on('error', () => socket.destroy());
  socket.on('data', (d: Buffer) => {
    pending += d.toString('latin1');
    for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
      socket.write(pending.startsWith('GET /api/room ') ? answers.list : answers.room);
      pending = pending.slice(end + 4);
    }
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
