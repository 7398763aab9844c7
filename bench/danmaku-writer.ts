// Danmaku writer cost: CPU per message through DanmakuRecorder (brec format, flush interval 20, raw on) to a real file.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommand, type DanmakuEvent } from '../src/bilibili/danmaku/commands.js';
import { ConfigStore } from '../src/config/store.js';
import { DanmakuRecorder, danmakuPathFor } from '../src/danmaku/recorder.js';
import { danmuCommand } from '../src/simulator/danmaku-messages.js';

const TOTAL = Number(process.argv[2] ?? 200_000);
const BATCH = 50;
const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-dm-'));
const config = new ConfigStore();
Object.assign(config.global, { RecordDanmaku: true, RecordDanmakuRaw: true });
const settings = config.resolveRoom(config.addRoom(1, true));
const rec = new DanmakuRecorder({
  settings: () => settings, info: () => ({ roomId: 1, shortId: 0, name: 'bench', title: 'bench', areaNameParent: 'a', areaNameChild: 'b' }), log: () => undefined,
});
const events: DanmakuEvent[] = Array.from({ length: 100 }, (_, i) => parseCommand(danmuCommand({ text: `弹幕 comment number ${i}`, uid: i + 1 }))!);
const video = join(dir, 'bench.flv');
rec.fileOpened(video);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let sent = 0; sent < TOTAL; sent += BATCH) {
  rec.mediaPosition(sent * 20);
  for (let i = 0; i < BATCH; i++) rec.offer(events[(sent + i) % events.length]!);
  await new Promise((resolve) => setImmediate(resolve));
}
rec.close();
const cpu = process.cpuUsage(cpu0);
const cpuUs = cpu.user + cpu.system;
const result = {
  messages: TOTAL, wallMs: Math.round(performance.now() - t0), cpuMs: Math.round(cpuUs / 1000),
  cpuUsPerMessage: Number((cpuUs / TOTAL).toFixed(2)), fileBytes: statSync(danmakuPathFor(video)).size,
};
console.log(JSON.stringify(result));
rmSync(dir, { recursive: true, force: true });
