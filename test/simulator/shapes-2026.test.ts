// The simulator answers in the shapes of the real captures: every field a capture has, the simulator's answer has too.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveFetch, startSim } from './helpers.js';

const capture = (name: string): any => JSON.parse(readFileSync(`test/fixtures/bili-real/api/${name}`, 'utf8'));
const missing = (real: object, ours: object): string[] => Object.keys(real).filter((k) => !(k in ours));

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([{ roomId: 34701, shortId: 347, live: true }]);
});
afterAll(() => sim.close());

describe('simulator answers vs captures', () => {
  it('getInfoByRoom: room_info and anchor base_info carry every captured field', async () => {
    const real = capture('rustsrec_getInfoByRoom_room22908869_2025-07.json');
    const ours: any = await (await liveFetch(sim.url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 347, web_location: '444.8' })).json();
    expect(Object.keys(ours).sort()).toEqual(Object.keys(real).sort());
    expect(missing(real.data.room_info, ours.data.room_info)).toEqual([]);
    expect(missing(real.data.anchor_info.base_info, ours.data.anchor_info.base_info)).toEqual([]);
    expect(ours.data.room_info).toMatchObject({ room_id: 34701, short_id: 347, live_status: 1 });
  });

  it('room_init and getDanmuInfo: the captured envelope and data fields', async () => {
    const init = capture('bac_room_v1_Room_room_init_room14073662_short76_2020-10.json');
    const ours: any = await (await liveFetch(sim.url, '/room/v1/Room/room_init', { id: 347 }, { sign: false })).json();
    expect(Object.keys(ours)).toEqual(Object.keys(init));
    expect(Object.keys(ours.data).sort()).toEqual(Object.keys(init.data).sort());
    const dm = capture('bac_getDanmuInfo_room1017_2025-05.json');
    const oursDm: any = await (await liveFetch(sim.url, '/xlive/web-room/v1/index/getDanmuInfo', { id: 34701, type: 0, web_location: '444.8' })).json();
    expect(Object.keys(oursDm)).toEqual(Object.keys(dm));
    expect(Object.keys(oursDm.data).sort()).toEqual(Object.keys(dm.data).sort());
    expect(Object.keys(oursDm.data.host_list[0]).sort()).toEqual(Object.keys(dm.data.host_list[0]).sort());
  });

  it('nav (guest) answers exactly the captured compact shape with the keys it checks signatures against', async () => {
    const nav = capture('bac_x_web-interface_nav_not_logged_in_wbi_img_compact.json');
    expect(await (await fetch(`${sim.url}/x/web-interface/nav`)).json()).toEqual(nav);
  });
});
