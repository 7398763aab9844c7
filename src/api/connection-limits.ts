// Concurrent connection limits of the HTTP API: per client address and in total, checked when a connection is accepted.
import { Server as NetServer, type Server, type Socket } from 'node:net';

/*
 * Why: every open connection is a file descriptor, shared with the recordings. 20,000 connections that each sent one
 * byte held every descriptor, and the API was unreachable while they stayed (recording went on). A client may now
 * hold at most `perClient` connections and all clients together `total`; a connection over either limit is closed
 * as it is accepted (plain HTTP first gets a one-line 429 answer), before any byte of it is read. How long a
 * connection may stay is bounded elsewhere: node:http's headersTimeout and requestTimeout (from the first byte, so
 * a client that trickles bytes cannot stretch them) and the front door's keep-alive timeout (server.ts).
 */

export interface ConnectionLimits {
  /** Connections one client address may hold at once. */
  perClient: number;
  /** Connections all clients may hold at once. */
  total: number;
}

/** The defaults: a browser holds at most 6 a host, a dashboard with an event stream per panel a few dozen; descriptors also serve recordings. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { perClient: 256, total: 2048 };

const REFUSED_BODY = '{"code":-429,"message":"too many connections from this client (--http-max-connections-per-client) or in total (--http-max-connections)"}';
const REFUSED = `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(REFUSED_BODY)}\r\nconnection: close\r\n\r\n${REFUSED_BODY}`;

/** IPv4-mapped IPv6 addresses count as their IPv4 address. */
const clientKey = (socket: Socket): string => {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
};

/** Counts the open connections of one or more listening servers (the loopback v4 and v6 servers share one count). */
export class ConnectionGate {
  private readonly byClient = new Map<string, number>();
  private open = 0;
  /** Connections refused since the start. */
  refused = 0;

  constructor(readonly limits: ConnectionLimits) {}

  /**
   * Admits `socket` or closes it; true when admitted. `plain`: the connection is plain HTTP, so the refusal can be
   * a 429 answer (on TLS it is only closed). The count drops when the socket closes.
   */
  admit(socket: Socket, plain: boolean): boolean {
    const key = clientKey(socket);
    const mine = this.byClient.get(key) ?? 0;
    if (mine >= this.limits.perClient || this.open >= this.limits.total) {
      this.refused++;
      socket.on('error', () => undefined);
      if (plain) {
        // What the client sent is read and dropped: closing with unread bytes would reset the connection, and the
        // client could lose the answer.
        socket.resume();
        socket.end(REFUSED);
        // Gone a second later, whatever the client sends or does not read (a fixed timer, not an idle one).
        const t = setTimeout(() => socket.destroy(), 1000);
        t.unref();
        socket.once('close', () => clearTimeout(t));
      } else {
        socket.destroy();
      }
      return false;
    }
    this.byClient.set(key, mine + 1);
    this.open++;
    socket.once('close', () => {
      this.open--;
      const left = (this.byClient.get(key) ?? 1) - 1;
      if (left <= 0) this.byClient.delete(key);
      else this.byClient.set(key, left);
    });
    return true;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.open;
  }
}

/**
 * A TCP server in front of a node:http or node:https server that never listens itself: each accepted connection is
 * admitted by `gate` and then given to `inner` through its documented `connection` event, in the same tick, as
 * node's own listen would; a refused one never reaches it.
 */
export function gatedServer(inner: Server, gate: ConnectionGate, plain: boolean): { server: Server; closeAllConnections(): void } {
  // node:http starts its connection tracking (headers/request timeouts, closeAllConnections) when it listens.
  inner.emit('listening');
  const server = new NetServer({ noDelay: true }, (socket) => {
    if (gate.admit(socket, plain)) inner.emit('connection', socket);
  });
  const http = inner as Server & { closeAllConnections?: () => void };
  return {
    server,
    closeAllConnections: () => {
      http.closeAllConnections?.();
      // Stops node:http's connection-checking timer (started by the 'listening' above).
      inner.close();
    },
  };
}
