// What both live-preview browser tests use: a plain-HTTP reader of a preview, and the pace of the room's open file.
import { get, type IncomingMessage } from 'node:http';
import type { WebSetup } from './setup.js';

/** A reader of the live preview over plain HTTP: keeps reading, or stops after its first chunk. */
export function previewReader(url: string, stopReading: boolean): Promise<{ res: IncomingMessage; bytes: () => Buffer; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (stopReading) res.pause();
      });
      resolve({ res, bytes: () => Buffer.concat(chunks), close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Media ms the room's open file gained per wall ms over `ms`. */
export async function filePace(s: WebSetup, roomId: number, ms: number): Promise<number> {
  const stats = () => s.service.recorder.findRoom(roomId)!.recordingStats;
  const t0 = performance.now();
  const m0 = stats().fileMaxTimestamp;
  await new Promise((r) => setTimeout(r, ms));
  return (stats().fileMaxTimestamp - m0) / (performance.now() - t0);
}
