// The refusal table (src/simulator/strict.ts = docs/bilibili-2026.md "Strictness per endpoint"): every row, refused without and accepted with.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signQuery } from '../../src/bilibili/wbi.js';
import { REQUIREMENTS, type Requirement, SIM_WBI_KEYS, STRICTNESS } from '../../src/simulator/strict.js';
import { Simulator } from '../../src/simulator/simulator.js';
import { TEST_BUVID3 } from './helpers.js';

const ROOM = 47001;
const UID = 4700100;
const PARAMS: Record<string, Record<string, string | number>> = {
  '/xlive/web-room/v1/index/getInfoByRoom': { room_id: ROOM },
  '/xlive/web-room/v1/index/getDanmuInfo': { id: ROOM, type: 0 },
  '/room/v1/Room/room_init': { id: ROOM },
  '/room/v1/Room/mobileRoomInit': { id: ROOM },
  '/xlive/web-room/v2/index/getRoomPlayInfo': { room_id: ROOM, protocol: '0,1', format: '0,1,2', codec: '0,1', qn: 10000, platform: 'web' },
  '/xlive/play-gateway/master/url': { cid: ROOM, mid: UID, pt: 'web', p2p_type: -1, net: 0, free_type: 0, build: 0, feature: 2, qn: 10000, drm_type: 0, codec: '0,1' },
  '/room/v1/Room/get_status_info_by_uids': { 'uids[]': UID },
  '/xlive/web-room/v1/index/getRoomBaseInfo': { req_biz: 'web_room_componet', room_ids: ROOM },
};

/** A call that meets every requirement except `without`. */
function call(base: string, path: string, without?: Requirement): Promise<Response> {
  const params = { ...PARAMS[path]!, ...(without === 'webLocation' ? {} : { web_location: '444.8' }) };
  const query = without === 'wbi' ? new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString() : signQuery(params, SIM_WBI_KEYS);
  const headers: Record<string, string> = {};
  if (without !== 'buvid3') headers.cookie = `buvid3=${TEST_BUVID3}`;
  if (without !== 'refererUa') Object.assign(headers, { referer: `https://live.bilibili.com/${ROOM}`, 'user-agent': 'Mozilla/5.0 Chrome/140.0.0.0' });
  return fetch(`${base}${path}?${query}`, { headers });
}

async function accepted(res: Response): Promise<boolean> {
  const text = await res.text();
  if (text.startsWith('#EXTM3U')) return true;
  return (JSON.parse(text) as { code: number }).code === 0;
}

let sim: Simulator;
let base: string;
beforeAll(async () => {
  sim = new Simulator();
  base = (await sim.start()).url;
  sim.createRoom({ roomId: ROOM, uid: UID, live: true });
});
afterAll(() => sim.close());

describe('the simulator is exactly as strict as the evidence', () => {
  it('the table covers every live endpoint and cites a source for every enforced requirement', () => {
    expect(Object.keys(STRICTNESS).sort()).toEqual(Object.keys(PARAMS).sort());
    const doc = readFileSync('docs/bilibili-2026.md', 'utf8');
    for (const [path, rule] of Object.entries(STRICTNESS)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${path.replace(/^\//, '')}\``));
      expect(row, `docs row for ${path}`).toBeTruthy();
      for (const r of REQUIREMENTS) {
        const cell = row!.split('|')[2 + REQUIREMENTS.indexOf(r)]!.trim();
        expect(cell.startsWith('**refused**'), `${path} ${r}: docs "${cell}"`).toBe(Boolean(rule.enforced[r]));
      }
    }
  });

  for (const [path, rule] of Object.entries(STRICTNESS)) {
    it(`${path}: accepted with everything`, async () => {
      expect(await accepted(await call(base, path))).toBe(true);
    });
    for (const r of REQUIREMENTS) {
      const enforced = Boolean(rule.enforced[r]);
      it(`${path} without ${r}: ${enforced ? 'refused with -352' : 'accepted and counted'}`, async () => {
        const before = sim.unenforcedHits[`${path} ${r}`] ?? 0;
        const res = await call(base, path, r);
        if (enforced) {
          const body = (await res.json()) as { code: number };
          expect(body.code).toBe(-352);
        } else {
          expect(await accepted(res)).toBe(true);
          expect(sim.unenforcedHits[`${path} ${r}`]).toBe(before + 1);
        }
      });
    }
  }

  it('--strict-all keeps the everything-refused mode: no buvid3 → -352 on room_init and play info', async () => {
    const all = new Simulator({ strictAll: true });
    const url = (await all.start()).url;
    try {
      all.createRoom({ roomId: ROOM, uid: UID, live: true });
      for (const path of ['/room/v1/Room/room_init', '/xlive/web-room/v2/index/getRoomPlayInfo']) {
        expect(((await (await call(url, path, 'buvid3')).json()) as { code: number }).code).toBe(-352);
      }
      expect(all.refusedHits.buvid3).toBe(2);
    } finally {
      await all.close();
    }
  });
});
