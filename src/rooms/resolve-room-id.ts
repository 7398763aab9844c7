// Resolves a room id that may be a short id to the real room id on the main thread, before a room is inserted.
import { BilibiliApiClient } from '../bilibili/api-client.js';
import type { ClientTestSwitches } from '../bilibili/client-options.js';
import type { ConfigStore } from '../config/store.js';
import { clientOptionsFrom } from './client-settings.js';

export type ResolveRoomId = (id: number) => Promise<number | null>;

/** Bounded so an add never hangs on a slow or paused live API (the room's own actor corrects the id later). */
const MAX_WAIT_MS = 5000;

/** room_init through the process-wide limiter; null when the live API cannot tell (the id is then used as given). */
export function roomIdResolver(config: ConfigStore, test?: ClientTestSwitches): ResolveRoomId {
  return async (id) => {
    const settings = config.resolveRoom({ roomId: id, autoRecord: false, overrides: {}, extra: {} });
    const client = new BilibiliApiClient(clientOptionsFrom(settings, test));
    try {
      const info = await client.roomInit(id, AbortSignal.timeout(Math.min(settings.TimingApiTimeout || MAX_WAIT_MS, MAX_WAIT_MS)));
      return info.roomId > 0 ? info.roomId : null;
    } catch {
      return null;
    }
  };
}
