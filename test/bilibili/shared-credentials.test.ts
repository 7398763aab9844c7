// The process-wide credential store: a fetch is made once however long it waits, and a dead claimant is taken over.
import { describe, expect, it } from 'vitest';
import { CredentialStore, fetchShared } from '../../src/bilibili/shared-credentials.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fetchShared', () => {
  it('fetches once while the claimant waits longer than its claim (a call queued in the API budget)', async () => {
    const store = CredentialStore.create();
    let fetches = 0;
    const slow = async (): Promise<string> => {
      fetches++;
      await sleep(1200); // four times the claim below
      return 'keys';
    };
    const first = fetchShared('wbi x', 60_000, slow, store, 300);
    await sleep(50);
    const others = [1, 2, 3].map(() => fetchShared('wbi x', 60_000, slow, store, 300));
    expect(await Promise.all([first, ...others])).toEqual(['keys', 'keys', 'keys', 'keys']);
    expect(fetches).toBe(1);
  });

  it('fetches again when the claimant stopped renewing (its thread is gone)', async () => {
    const store = CredentialStore.create();
    store.update('guest x', (e) => void (e.claimedUntil = Date.now() + 200)); // a claim nobody renews
    let fetches = 0;
    expect(await fetchShared('guest x', 60_000, async () => ++fetches, store, 200)).toBe(1);
    expect(fetches).toBe(1);
  });
});
