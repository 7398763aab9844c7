// A real HTTP server that receives liverec's v2 webhooks for the model test and keeps each event once (by EventId).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hook {
  EventType: string;
  EventTimestamp: string;
  EventId: string;
  EventData: Record<string, unknown> & { RoomId: number; RelativePath?: string; FileOpenTime?: string; Gaps?: { StartMs: number; DurationMs: number; Reason: string }[] };
  /** When the sink received it (ms). */
  receivedAt: number;
}

export class WebhookSink {
  readonly events: Hook[] = [];
  private readonly ids = new Set<string>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const e = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Hook;
          // A retry carries the same EventId (docs/api.md): at-least-once delivery, counted once.
          if (typeof e.EventId === 'string' && !this.ids.has(e.EventId)) {
            this.ids.add(e.EventId);
            this.events.push({ ...e, receivedAt: Date.now() });
          }
        } catch {
          // Not JSON: not a v2 webhook; ignored.
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  of(type: string, path?: string): Hook[] {
    return this.events.filter((e) => e.EventType === type && (path === undefined || e.EventData.RelativePath === path));
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections();
    });
  }
}
