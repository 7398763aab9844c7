// What play info did to this process's guest lately (capped at 250 or not), shared by every thread, so a start of a
// capped guest asks the master playlist alone: one live-API call instead of play info + master playlist (issue 48).
import { type CredentialStore, getCredentialStore } from './shared-credentials.js';

/*
 * Why a memory and not a rule: the 2025-07 capture shows the cap for `mid=0` (current_qn 250, accept_qn [10000, …]),
 * but a cookie, an account or the service may serve a guest more; a start that skipped play info without having
 * seen the cap would trade a logged-in quality's FLV for HLS. So the first guest start of a host asks play info as
 * before (the probe), and what it saw holds for MAX_AGE_MS. Starts that come while the probe is under way wait for
 * it (PROBE_WAIT_MS at most, before taking a place in the API budget): twenty rooms live at start learn it once.
 */
export const MAX_AGE_MS = 3600_000;
const PROBE_WAIT_MS = 10_000;
const POLL_MS = 50;

export type GuestCap = 'capped' | 'uncapped';

interface Entry {
  value?: GuestCap;
  at?: number;
  claimedUntil?: number;
}

const keyOf = (liveApiHost: string): string => `guest-cap:${liveApiHost}`;

/** A cookie without a login (no SESSDATA): what the service serves as a guest. */
export function isGuestCookie(cookie: string): boolean {
  return !/(?:^|;\s*)SESSDATA=[^;\s]+/.test(cookie);
}

/**
 * What is known for `liveApiHost`: 'capped' / 'uncapped' (seen within MAX_AGE_MS), or 'probe' when nothing is known
 * and this caller now owns the probe (it must call learnGuestCap once its start is resolved, with null when its
 * answer showed neither). While another caller probes, waits for its answer, at most PROBE_WAIT_MS.
 */
export async function guestCapFor(liveApiHost: string, signal?: AbortSignal, s: CredentialStore = getCredentialStore()): Promise<GuestCap | 'probe'> {
  const key = keyOf(liveApiHost);
  const deadline = Date.now() + PROBE_WAIT_MS;
  for (;;) {
    const now = Date.now();
    const e = s.get(key) as Entry;
    if (e.value && e.at !== undefined && now - e.at < MAX_AGE_MS) return e.value;
    const mine = s.update(key, (entry) => {
      const x = entry as Entry;
      if ((x.claimedUntil ?? 0) > now && now < deadline) return false;
      x.claimedUntil = now + PROBE_WAIT_MS;
      return true;
    });
    if (mine) return 'probe';
    if (signal?.aborted) throw signal.reason;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The probe's (or any start's) finding; null releases the probe without one, so the next start probes. */
export function learnGuestCap(liveApiHost: string, seen: GuestCap | null, s: CredentialStore = getCredentialStore()): void {
  s.update(keyOf(liveApiHost), (entry) => {
    const x = entry as Entry;
    x.claimedUntil = 0;
    if (seen) Object.assign(x, { value: seen, at: Date.now() });
  });
}
