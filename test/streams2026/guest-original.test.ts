// Guest original (issue 47): against the default simulator (guest cap on) with no cookie, play info serves qn 250 while
// accept_qn lists 10000; liverec asks the master playlist as biliup does and records its qn 10000 variant (HLS fMP4),
// and `liverec check --json` names that choice and why. RecordingProtocol without hls-fmp4 keeps 250 and says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../src/simulator/simulator.js';
import { startCli } from '../cli/helpers.js';
import { startHarness } from '../rooms/harness.js';
import { until } from '../webhook/helpers.js';

const ROOM = 47201;

describe('a guest records the original from the master playlist', () => {
  it('records qn 10000 from the master playlist (mid = streamer uid, drm_type=0, codec=0,1), not the capped 250', async () => {
    const h = await startHarness({ rooms: [{ roomId: ROOM, live: true, bitrateKbps: 600 }], sim: { guestQnCap: true } });
    try {
      const opened = await h.waitEvent('FileOpening', (e) => e.EventData.RoomId === ROOM, 60_000);
      const room = h.sim.room(ROOM);
      expect(room.guestQnCap).toBe(true);
      const master = room.apiLog.find((r) => r.path === '/xlive/play-gateway/master/url');
      expect(master, 'the master playlist was asked').toBeTruthy();
      const q = new URLSearchParams(master!.query);
      expect([q.get('mid'), q.get('drm_type'), q.get('codec'), q.get('cid')]).toEqual([String(room.uid), '0', '0,1', String(ROOM)]);
      expect(String(master!.headers.cookie ?? '')).not.toMatch(/SESSDATA/);
      // The stream requested is the master playlist's qn 10000 fMP4 variant.
      await until(() => room.counters.hlsSegmentsServed >= 2, 60_000, 'two segments fetched');
      const playlist = room.streamLog.find((r) => r.path.endsWith('/index.m3u8'));
      expect(new URLSearchParams(playlist!.query).get('qn')).toBe('10000');
      expect(new URLSearchParams(playlist!.query).get('source')).toBe('puv3_master');
      expect(room.counters.streamConnections).toBe(0); // no FLV at 250
      const rel = String((opened.EventData as { RelativePath?: string }).RelativePath);
      expect(rel).toMatch(/\.mp4$/);
      expect(existsSync(join(h.workDir, rel))).toBe(true);
    } finally {
      await h.close();
    }
  }, 120_000);

  it('`liverec check --json` names the master-playlist choice and why; without hls-fmp4 it keeps 250 and says so', async () => {
    const sim = new Simulator();
    const url = (await sim.start()).url;
    try {
      sim.createRoom({ roomId: ROOM, live: true });
      const run = async (extra: string[]): Promise<any> => {
        const p = startCli(['check', String(ROOM), '--live-api-host', url, '--json', ...extra]);
        const { code } = await p.exit;
        expect(code, p.stderr()).toBe(0);
        return (JSON.parse(p.stdout()) as { rooms: any[] }).rooms[0];
      };
      const r = await run([]);
      expect(r.streams[0]).toMatchObject({ format: 'flv', qn: 250, acceptQn: [10000, 400, 250, 150] });
      expect(r.choice).toMatchObject({ format: 'fmp4', codec: 'avc', currentQn: 10000, source: 'master-playlist' });
      expect(r.quality).toMatchObject({ qn: 10000, source: 'master-playlist' });
      expect(r.quality.why).toMatch(/serves 250 .*accept_qn lists 10000.*guest cap.*master playlist lists 10000/);
      expect(r.protocol).toMatchObject({ token: 'hls-fmp4' });
      expect(r.protocol.why).toMatch(/quality before protocol/);
      const text = startCli(['check', String(ROOM), '--live-api-host', url]);
      await text.exit;
      expect(text.stdout()).toMatch(/quality \(first\): +qn 10000 avc from the master-playlist/);
      expect(text.stdout()).toMatch(/protocol \(second\): hls-fmp4/);
      const flvOnly = await run(['--recording-protocol', 'flv']);
      expect(flvOnly.choice).toMatchObject({ format: 'flv', currentQn: 250, source: 'play-info' });
      expect(flvOnly.quality.why).toMatch(/RecordingProtocol excludes hls-fmp4/);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
