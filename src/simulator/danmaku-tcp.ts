// The simulator's raw-TCP danmaku listener (host_list `port`; 2243 on the service): the WebSocket's packets over a bare stream.
import net, { type AddressInfo } from 'node:net';
import type { DanmakuHub } from './danmaku-hub.js';

/** Larger declared lengths close the connection, as a corrupt stream cannot be resynchronised. */
const MAX_PACKET = 64 * 1024;

export class DanmakuTcpServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly hub: DanmakuHub) {
    this.server = net.createServer((socket) => this.onConnection(socket));
  }

  async listen(host: string, port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  private onConnection(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const peer = this.hub.addPeer({
      send: (data) => {
        if (!socket.destroyed) socket.write(data);
      },
      close: () => socket.end(),
      terminate: () => socket.destroy(),
    }, 'tcp');
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // Hand the hub whole packets only: TCP splits and joins them anywhere.
      let end = 0;
      while (pending.length - end >= 4) {
        const len = pending.readUInt32BE(end);
        if (len < 16 || len > MAX_PACKET) {
          socket.destroy();
          return;
        }
        if (pending.length - end < len) break;
        end += len;
      }
      if (end > 0) {
        this.hub.onMessage(peer, pending.subarray(0, end));
        pending = pending.subarray(end);
      }
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.hub.removePeer(peer);
    });
    socket.on('error', () => socket.destroy());
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
