// A big danmaku XML (about 50 MB) is read on the danmaku thread: while its heat is computed, the API keeps answering
// (/api/version answers come back throughout, none waiting anywhere near as long as the parse), the counts are whole,
// and asking again (heat, then suggestions) takes the cached reading; a malformed XML is a 400 from the thread.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { initLogger } from '../../src/log/logger.js';
import { startService, type Service } from '../../src/service.js';
import { writeXml, type Item } from './fixtures.js';

const workDir = mkdtempSync(join(tmpdir(), 'liverec-big-xml-'));
const COUNT = 440_000;
let service: Service;
let url: string;

beforeAll(async () => {
  mkdirSync(join(workDir, 'big'), { recursive: true });
  const items: Item[] = [];
  for (let i = 0; i < COUNT; i++) items.push({ kind: i % 50 === 0 ? 'gift' : 'd', t: i * 0.01, text: `弹幕内容 comment number ${i} 好好好` });
  writeXml(join(workDir, 'big', 'b.xml'), items);
  initLogger({ level: process.env.LIVEREC_LOG_LEVEL ?? 'error' });
  const config = ConfigStore.load(workDir);
  config.global.LiveApiHost = 'http://127.0.0.1:9';
  service = await startService({ workDir, config, api: { bind: 'http://127.0.0.1:0', env: {} } });
  url = service.api!.url;
}, 120_000);

afterAll(async () => {
  await service?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('a big danmaku XML', () => {
  it('is read off the API thread: other answers come while its heat is computed', async () => {
    expect(statSync(join(workDir, 'big', 'b.xml')).size).toBeGreaterThan(50_000_000);
    const t0 = performance.now();
    let done = false;
    const density = fetch(`${url}/api/file/danmaku-density?path=big/b.xml&bucketS=60`).then(async (r) => {
      const body = (await r.json()) as { totals: Record<string, number> };
      done = true;
      return { status: r.status, body, ms: performance.now() - t0 };
    });
    const waits: number[] = [];
    while (!done) {
      const s = performance.now();
      const v = await fetch(`${url}/api/version`);
      expect(v.status).toBe(200);
      await v.arrayBuffer();
      if (!done) waits.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 50));
    }
    const d = await density;
    expect(d.status).toBe(200);
    expect(d.body.totals).toEqual({ danmaku: COUNT - COUNT / 50, superChats: 0, gifts: COUNT / 50, guards: 0 });
    // Answers throughout the parse, none held for long (on the API thread one would wait for the whole parse).
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...waits)).toBeLessThan(Math.max(d.ms / 2, 50));
    expect(Math.max(...waits)).toBeLessThan(5000);

    // Asked again (the same size and mtime): the cached reading, heat and suggestions alike.
    const t1 = performance.now();
    const again = await fetch(`${url}/api/file/danmaku-density?path=big/b.xml&bucketS=60`);
    expect(((await again.json()) as { totals: Record<string, number> }).totals).toEqual(d.body.totals);
    const s = await fetch(`${url}/api/clips/suggestions?path=big/b.xml&windowS=30&count=3`);
    expect(s.status).toBe(200);
    expect(((await s.json()) as { suggestions: unknown[] }).suggestions).toHaveLength(3);
    expect(performance.now() - t1).toBeLessThan(d.ms);
  }, 240_000);

  it('a malformed XML read on the thread is a 400 naming it inside the work directory; fixed, it is read again', async () => {
    const bad = join(workDir, 'big', 'bad.xml');
    writeFileSync(bad, '<?xml version="1.0"?>\n<i>\n  <d p="1,1,25,1,0,0,1,0">x</d>\n  <d p="2,1');
    const r = await fetch(`${url}/api/file/danmaku-density?path=big/bad.xml`);
    expect(r.status).toBe(400);
    const body = (await r.json()) as { code: number; message: string };
    expect(body.code).toBe(-10);
    expect(body.message).toContain('big/bad.xml');
    expect(body.message).not.toContain(workDir);
    writeXml(bad, [{ kind: 'd', t: 1 }, { kind: 'sc', t: 2 }]);
    const fixed = await fetch(`${url}/api/file/danmaku-density?path=big/bad.xml`);
    expect(fixed.status).toBe(200);
    expect(((await fixed.json()) as { totals: Record<string, number> }).totals).toEqual({ danmaku: 1, superChats: 1, gifts: 0, guards: 0 });
  });
});
