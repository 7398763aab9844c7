// The text log that accompanies an output file (`x.flv` → `x.txt`): messages with their position in the video.
import { appendFileSync, existsSync } from 'node:fs';

const HEADER = '此文件内记录了对应的视频文件中可能存在的问题\n';

/** HH:MM:SS.mmm of a duration in seconds. */
export function formatVideoTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
}

/** Appends blocks to `<flv path without .flv>.txt`, creating it with a header on first use. */
export class TextLog {
  readonly path: string;

  constructor(flvPath: string, private readonly title: string) {
    this.path = flvPath.replace(/\.flv$/i, '') + '.txt';
  }

  write(message: string, duration: number, filePosition: number): void {
    let text = '';
    if (!existsSync(this.path)) text += `${HEADER}${this.title}\n\n`;
    text +=
      '-----记录开始-----\n' +
      `记录时间: ${new Date().toISOString()}\n` +
      `视频时间: ${formatVideoTime(duration)}\n` +
      `文件位置: ${filePosition} 字节\n` +
      `${message}\n` +
      '-----记录结束-----\n';
    try {
      appendFileSync(this.path, text);
    } catch {
      // The log is advisory; losing it must not stop the recording.
    }
  }
}
