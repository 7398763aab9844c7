// Rooms the service will not let a guest record: paid (DRM, special type 203), DRM-only, password and guard-only.
import type { SimRoom } from './room.js';

export const SIM_SPECIALS = ['paid', 'password', 'guardOnly', 'drmOnly'] as const;
export type SimSpecial = (typeof SIM_SPECIALS)[number];

/** all_special_types value of a paid (付费) live: 203 (biliLive-tools PR #485, bilibili-2026.md "Special rooms"). */
export const PAID_SPECIAL_TYPE = 203;

function eachCodec(data: Record<string, unknown>, fn: (codec: Record<string, unknown>) => void): void {
  const playurl = (data.playurl_info as { playurl?: { stream?: { format?: { codec?: Record<string, unknown>[] }[] }[] } } | null)?.playurl;
  for (const s of playurl?.stream ?? []) for (const f of s.format ?? []) for (const c of f.codec ?? []) fn(c);
}

/** getRoomPlayInfo `data` of a special room, changed from the normal answer the way the service changes it. */
export function specialPlayInfo(room: SimRoom, data: Record<string, unknown>): Record<string, unknown> {
  switch (room.special) {
    case 'paid':
      data.all_special_types = [PAID_SPECIAL_TYPE];
      eachCodec(data, (c) => Object.assign(c, { drm: true, drm_key_systems: ['com.widevine.alpha'] }));
      return data;
    case 'drmOnly':
      eachCodec(data, (c) => Object.assign(c, { drm: true, drm_key_systems: ['com.widevine.alpha'] }));
      return data;
    case 'password':
      // A guest who has not entered the password: encrypted, not verified, no playurl.
      return { ...data, encrypted: true, pwd_verified: false, playurl_info: null };
    case 'guardOnly': {
      const playurl = (data.playurl_info as { playurl?: { stream?: unknown[] } } | null)?.playurl;
      if (playurl) playurl.stream = [];
      return data;
    }
    default:
      return data;
  }
}

/** room_init `data` of a special room: a password room says encrypted and not verified (no capture shows paid rooms here). */
export function specialRoomInit(room: SimRoom, data: Record<string, unknown>): Record<string, unknown> {
  return room.special === 'password' ? { ...data, encrypted: true, pwd_verified: false } : data;
}
