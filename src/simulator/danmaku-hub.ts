// The simulator's danmaku WebSocket (/sub): auth against issued tokens, heartbeat replies, batched pushes.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { brotliCompressSync, constants, deflateSync } from 'node:zlib';
import { type WebSocket, WebSocketServer } from 'ws';
import { guestView, LOG_IN_NOTICE } from './danmaku-guest-view.js';
import { pushLog, type SimRoom } from './room.js';

// The simulator frames packets itself instead of reusing the client's codec, so tests that run the client
// against it check two independent implementations of the format.
function packet(op: number, version: number, body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(16 + body.length);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt16BE(16, 4);
  out.writeUInt16BE(version, 6);
  out.writeUInt32BE(op, 8);
  out.writeUInt32BE(version === 1 ? 1 : 0, 12);
  body.copy(out, 16);
  return out;
}

/** The packets of one push: one compressed batch (protover 2 zlib, 3 brotli), or one plain packet per command. */
function encode(commands: object[], version: 0 | 2 | 3): Buffer[] {
  const plain = commands.map((c) => packet(5, 0, Buffer.from(JSON.stringify(c))));
  if (version === 0) return plain;
  const joined = Buffer.concat(plain);
  if (version === 3) return [packet(5, 3, brotliCompressSync(joined, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }))];
  return [packet(5, 2, deflateSync(joined))];
}

/** What the hub needs of a connection: a WebSocket, or a raw-TCP socket framed by danmaku-tcp.ts. */
export interface PeerSocket {
  send(data: Buffer): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

export interface DanmakuPeer {
  ws: PeerSocket;
  /** 'ws' (the /sub WebSocket) or 'tcp' (the raw-TCP listener host_list's `port` names). */
  transport: 'ws' | 'tcp';
  room: SimRoom | null;
  protover: number;
  lastSeen: number;
  connectedAt: number;
  /** The WebSocket upgrade's headers (null over raw TCP), logged with the room once the auth names it. */
  upgradeHeaders: IncomingMessage['headers'] | null;
  /** Authenticated with a token issued to a guest: senders arrive masked (danmaku-guest-view.ts). */
  guest: boolean;
}

/** Clients silent for this long are dropped, as the real server does after 60–70 s. */
const SILENT_DROP_MS = 70_000;
/** The auth packet must arrive within this time of connecting. */
const AUTH_DEADLINE_MS = 5_000;

export class DanmakuHub {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  private readonly peers = new Set<DanmakuPeer>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly findRoom: (roomId: number) => SimRoom | undefined) {
    this.sweep = setInterval(() => this.dropSilent(), 5_000);
    this.sweep.unref();
  }

  /** Takes over an HTTP upgrade for /sub. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req));
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const peer = this.addPeer(ws, 'ws');
    peer.upgradeHeaders = req.headers;
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(peer, isBinary ? data : Buffer.from(data)));
    ws.on('close', () => this.removePeer(peer));
    ws.on('error', () => ws.terminate());
  }

  /** A new connection of either transport; the transport calls onMessage with whole packets and removePeer at its end. */
  addPeer(socket: PeerSocket, transport: DanmakuPeer['transport']): DanmakuPeer {
    const now = Date.now();
    const peer: DanmakuPeer = { ws: socket, transport, room: null, protover: 0, lastSeen: now, connectedAt: now, upgradeHeaders: null, guest: true };
    this.peers.add(peer);
    return peer;
  }

  removePeer(peer: DanmakuPeer): void {
    this.peers.delete(peer);
    peer.room?.danmaku.delete(peer);
  }

  onMessage(peer: DanmakuPeer, data: Buffer): void {
    peer.lastSeen = Date.now();
    let pos = 0;
    while (data.length - pos >= 16) {
      const len = data.readUInt32BE(pos);
      if (len < 16 || pos + len > data.length) break;
      const op = data.readUInt32BE(pos + 8);
      const body = data.subarray(pos + 16, pos + len);
      pos += len;
      if (op === 7) this.onAuth(peer, body);
      else if (op === 2 && peer.room) this.onHeartbeat(peer);
    }
  }

  private onAuth(peer: DanmakuPeer, body: Buffer): void {
    let auth: Record<string, unknown> = {};
    try {
      auth = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      /* answered as a bad auth below */
    }
    const room = typeof auth.roomid === 'number' ? this.findRoom(auth.roomid) : undefined;
    if (room) {
      room.counters.danmakuAuths++;
      pushLog(room.authLog, { ...auth, at: Date.now() });
      if (peer.upgradeHeaders) pushLog(room.upgradeLog, { at: Date.now(), path: '/sub', query: '', headers: peer.upgradeHeaders });
    }
    const ok = room !== undefined && typeof auth.key === 'string' && room.tokens.includes(auth.key);
    peer.ws.send(packet(8, 1, Buffer.from(JSON.stringify({ code: ok ? 0 : -101 }))));
    if (!ok || !room) {
      peer.ws.close(1008, 'auth failed');
      return;
    }
    peer.room = room;
    peer.protover = typeof auth.protover === 'number' ? auth.protover : 0;
    // Who the token was issued to decides what the connection sees, not the auth's own uid field.
    peer.guest = room.guestDanmakuMask && room.guestTokens.has(auth.key as string);
    room.danmaku.add(peer);
    room.counters.danmakuConnections++;
    if (peer.guest) {
      room.counters.loginNotices++;
      peer.ws.send(packet(5, 0, Buffer.from(JSON.stringify(LOG_IN_NOTICE))));
    }
  }

  private onHeartbeat(peer: DanmakuPeer): void {
    const room = peer.room!;
    room.counters.heartbeats++;
    pushLog(room.heartbeatTimes, Date.now());
    const body = Buffer.allocUnsafe(4);
    body.writeUInt32BE(room.popularity >>> 0);
    peer.ws.send(packet(3, 1, body));
  }

  /**
   * Sends commands to every authenticated socket of the room, batched as each socket's protover asks; a guest's
   * socket gets the guest view of each command (masked senders).
   */
  push(room: SimRoom, commands: object[]): number {
    if (room.danmaku.size === 0 || commands.length === 0) return 0;
    const encoded = new Map<string, Buffer[]>();
    for (const peer of room.danmaku) {
      const version = peer.protover === 3 || peer.protover === 2 ? peer.protover : 0;
      const key = `${peer.guest ? 'guest' : 'user'}/${version}`;
      let out = encoded.get(key);
      if (!out) encoded.set(key, (out = encode(peer.guest ? commands.map(guestView) : commands, version)));
      for (const p of out) peer.ws.send(p);
      room.counters.danmakuMessagesSent++;
    }
    return room.danmaku.size;
  }

  /** Sends raw bytes as one WebSocket message to every authenticated socket of the room (bad-input tests). */
  pushRaw(room: SimRoom, bytes: Buffer): number {
    for (const peer of room.danmaku) peer.ws.send(bytes);
    return room.danmaku.size;
  }

  /** Drops the room's sockets (danmaku-drop fault, room deleted). */
  drop(room: SimRoom, mode: 'terminate' | 'close'): number {
    const n = room.danmaku.size;
    for (const peer of [...room.danmaku]) {
      if (mode === 'close') peer.ws.close(1011, 'simulated drop');
      else peer.ws.terminate();
      room.danmaku.delete(peer);
    }
    return n;
  }

  private dropSilent(): void {
    const now = Date.now();
    for (const peer of this.peers) {
      if (now - peer.lastSeen > SILENT_DROP_MS || (!peer.room && now - peer.connectedAt > AUTH_DEADLINE_MS)) peer.ws.terminate();
    }
  }

  close(): void {
    clearInterval(this.sweep);
    for (const peer of this.peers) peer.ws.terminate();
    this.peers.clear();
    this.wss.close();
  }
}
