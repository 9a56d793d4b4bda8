// A small relay in node for the browser tests: the WebSocket binding of PROTOCOL.md §12.2 (one binary
// message is one frame, forwarded unchanged to the other connections of the same match id, never back to
// its sender; `joined` to the others when a connection joins), with one deliberate fault: it can flip a
// byte of the first Move frame (kind 0x10) it forwards, to check that the receiving page drops it, or lose
// that frame, to check that its sender sends it again after a silence.
//
// Not a relay to deploy (no limits, no pings): tesseract-relay is that. Loopback only.

import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

/** The kind byte of a Move frame (PROTOCOL.md §3) and where its text starts. */
const MOVE = 0x10;
const TEXT_AT = 21;

/**
 * Starts the relay on 127.0.0.1 (a free port). `tamper`: flip a byte in the text of the first Move frame;
 * `lose`: drop that frame instead. Resolves to { url, tampered: [{ before, after }], close() }.
 */
export async function startTamperRelay({ tamper = true, lose = false } = {}) {
  const http = createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' }).end(req.url === '/health' ? 'ok' : 'not found\n');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const matches = new Map(); // match id -> Set of sockets
  const tampered = [];
  http.on('upgrade', (req, socket, head) => {
    const m = /^\/match\/([A-Za-z0-9_-]{1,64})$/.exec(req.url ?? '');
    if (!m) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const id = m[1];
      if (!matches.has(id)) matches.set(id, new Set());
      const peers = matches.get(id);
      for (const other of peers) other.send('joined');
      peers.add(ws);
      ws.on('message', (data, isBinary) => {
        if (!isBinary) {
          ws.close(1003, 'binary frames only');
          return;
        }
        let frame = Buffer.from(data);
        if (tamper && tampered.length === 0 && frame.length > TEXT_AT && frame[3] === MOVE) {
          if (lose) {
            tampered.push({ before: frame.toString('hex'), after: null });
            return;
          }
          const before = Buffer.from(frame);
          frame = Buffer.from(frame);
          frame[TEXT_AT] ^= 0x01; // '2' <-> '3', 'e' <-> 'd': still printable, another move text
          tampered.push({ before: before.toString('hex'), after: frame.toString('hex') });
        }
        for (const other of peers) if (other !== ws && other.readyState === 1) other.send(frame, { binary: true });
      });
      ws.on('close', () => {
        peers.delete(ws);
        if (peers.size === 0) matches.delete(id);
      });
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${http.address().port}`;
  return {
    url,
    tampered,
    async close() {
      for (const set of matches.values()) for (const ws of set) ws.terminate();
      wss.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

// `node tests/tamper-relay.mjs [--honest]`: run it by hand (prints its address).
if (import.meta.url === `file://${process.argv[1]}`) {
  const relay = await startTamperRelay({ tamper: !process.argv.includes('--honest') });
  console.log(`relay listening on ${relay.url.replace('ws:', 'http:')}/`);
}
