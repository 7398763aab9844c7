// A hostile danmaku server on loopback (issue 36's danmaku rows): answers the auth packet, then attacks in one way.
import { createServer, type Server } from 'node:http';
import { deflateSync } from 'node:zlib';
import { type WebSocket, WebSocketServer } from 'ws';
import { encodePacket, Op, Version } from '../../src/bilibili/danmaku/packet.js';

/**
 * - zlib-flood: messages of 300 zlib packets, each inflating to just under 8 MiB (2 per second)
 * - endless-message: one binary message whose continuation frames never end (64 KiB frames, as fast as it goes)
 * - ping-flood: 8 MiB ping frames, and the server never reads what the client sends
 * - room-change: ROOM_CHANGE commands with a `titleBytes` title, 3 per second
 */
export type DanmakuAttack = 'zlib-flood' | 'endless-message' | 'ping-flood' | 'room-change';

export interface HostileDanmaku {
  host: string;
  wsPort: number;
  /** WebSocket connections accepted (the client reconnects after each cut). */
  connections: number;
  close(): Promise<void>;
}

/** A server frame (unmasked) with any payload size, control frames included (ws refuses to build oversized pings). */
function rawFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const head = Buffer.alloc(10);
  head[0] = (fin ? 0x80 : 0) | opcode;
  head[1] = 127;
  head.writeUInt32BE(0, 2);
  head.writeUInt32BE(payload.length, 6);
  return Buffer.concat([head, payload]);
}

function command(body: object, version: number = Version.Json): Buffer {
  return encodePacket(Op.Command, Buffer.from(JSON.stringify(body)), version);
}

function attack(ws: WebSocket, mode: DanmakuAttack, titleBytes: number): () => void {
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  const timers: NodeJS.Timeout[] = [];
  switch (mode) {
    case 'zlib-flood': {
      const inner = Buffer.alloc(8 * 1024 * 1024 - 64);
      const packet = encodePacket(Op.Command, deflateSync(inner), Version.Zlib);
      const message = Buffer.concat(Array.from({ length: 300 }, () => packet));
      timers.push(setInterval(() => ws.readyState === ws.OPEN && ws.send(message), 500));
      break;
    }
    case 'endless-message': {
      const part = Buffer.alloc(64 * 1024, 0x20);
      socket.write(rawFrame(0x2, part, false));
      const pump = (): void => {
        while (!socket.destroyed) if (!socket.write(rawFrame(0x0, part, false))) return void socket.once('drain', pump);
      };
      pump();
      break;
    }
    case 'ping-flood': {
      socket.pause(); // never reads: pongs (and heartbeats) stay with the client
      const ping = rawFrame(0x9, Buffer.alloc(8 * 1024 * 1024, 0x70));
      const pump = (): void => {
        while (!socket.destroyed) if (!socket.write(ping)) return void socket.once('drain', pump);
      };
      pump();
      break;
    }
    case 'room-change': {
      let n = 0;
      timers.push(setInterval(() => {
        const title = `${n++}`.padEnd(titleBytes, 'T');
        if (ws.readyState === ws.OPEN) ws.send(command({ cmd: 'ROOM_CHANGE', data: { title, area_id: 1, parent_area_id: 1, area_name: 'A', parent_area_name: 'P' } }));
      }, 333));
      break;
    }
  }
  return () => timers.forEach((t) => clearInterval(t));
}

export async function startHostileDanmaku(mode: DanmakuAttack, options: { titleBytes?: number } = {}): Promise<HostileDanmaku> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, maxPayload: 1 << 20 });
  const out: HostileDanmaku = { host: '127.0.0.1', wsPort: 0, connections: 0, close: async () => undefined };
  wss.on('connection', (ws) => {
    out.connections++;
    let stop = (): void => undefined;
    ws.on('error', () => undefined);
    ws.once('message', () => {
      // The auth packet: accept it, then attack.
      ws.send(encodePacket(Op.AuthReply, '{"code":0}'));
      stop = attack(ws, mode, options.titleBytes ?? 15_000_000);
    });
    ws.on('close', () => stop());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out.wsPort = (server.address() as { port: number }).port;
  out.close = () => new Promise<void>((resolve) => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return out;
}
