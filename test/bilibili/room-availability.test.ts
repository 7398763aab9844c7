// unavailableReason from getRoomPlayInfo answers: the real 2025-07 capture changed the way paid, DRM, password and guard-only rooms differ.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorUnavailable, playInfoUnavailable } from '../../src/bilibili/room-availability.js';
import { mergeCookie } from '../../src/bilibili/identity.js';

const REAL = JSON.parse(readFileSync('test/fixtures/bili-real/api/rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json', 'utf8')).data;
const OFFLINE = JSON.parse(readFileSync('test/fixtures/bili-real/api/rustsrec_getRoomPlayInfo_offline_room6_playurl_info_null.json', 'utf8')).data;
const codecs = (d: any): any[] => d.playurl_info.playurl.stream.flatMap((s: any) => s.format.flatMap((f: any) => f.codec));
const changed = (f: (d: any) => void): unknown => {
  const d = structuredClone(REAL);
  f(d);
  return d;
};

describe('playInfoUnavailable', () => {
  it('is null for the real live room (special types [19]) and the real offline room', () => {
    expect(REAL.all_special_types).toEqual([19]);
    expect(playInfoUnavailable(REAL)).toBeNull();
    expect(playInfoUnavailable(OFFLINE)).toBeNull(); // offline, not verified, but not encrypted: nothing to refuse
  });

  it('paid (203), drmOnly (every entry drm), password (encrypted, not verified), guardOnly (live, no stream)', () => {
    expect(playInfoUnavailable(changed((d) => d.all_special_types.push(203)))).toBe('paid');
    expect(playInfoUnavailable(changed((d) => codecs(d).forEach((c) => (c.drm = true))))).toBe('drmOnly');
    expect(playInfoUnavailable(changed((d) => (codecs(d)[0].drm = true)))).toBeNull(); // others are still recordable
    expect(playInfoUnavailable(changed((d) => Object.assign(d, { encrypted: true, pwd_verified: false, playurl_info: null })))).toBe('password');
    expect(playInfoUnavailable(changed((d) => Object.assign(d, { encrypted: true, pwd_verified: true })))).toBeNull();
    expect(playInfoUnavailable(changed((d) => (d.playurl_info.playurl.stream = [])))).toBe('guardOnly');
    expect(playInfoUnavailable(changed((d) => Object.assign(d, { live_status: 0 }, { playurl_info: { playurl: { stream: [] } } })))).toBeNull();
  });

  it('room-level API errors name their reason; others do not', () => {
    expect(errorUnavailable('API_ROOM_NOT_FOUND')).toBe('notFound');
    expect(errorUnavailable('API_ROOM_ENCRYPTED')).toBe('password');
    expect(errorUnavailable('API_RISK_352')).toBeNull();
  });
});

describe('mergeCookie', () => {
  const guest = { buvid3: 'B3infoc', buvid4: 'B4' };
  it('adds the guest ids only where the user cookie lacks them; the user cookie wins', () => {
    expect(mergeCookie('', guest)).toBe('buvid3=B3infoc; buvid4=B4');
    expect(mergeCookie('SESSDATA=s;', guest)).toBe('SESSDATA=s; buvid3=B3infoc; buvid4=B4');
    expect(mergeCookie('buvid3=mine; SESSDATA=s', guest)).toBe('buvid3=mine; SESSDATA=s; buvid4=B4');
    expect(mergeCookie('buvid3=mine; buvid4=mine4', guest)).toBe('buvid3=mine; buvid4=mine4');
    expect(mergeCookie('a=1', null)).toBe('a=1');
  });
});
