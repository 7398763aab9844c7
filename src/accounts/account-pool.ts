// Which login a room records with: RecordingAccount (`auto`, an account's uid, or `guest`) over the accounts that work.
export interface PoolAccount {
  uid: number;
  usable: boolean;
}

export type Choice = { uid: number; why: string } | { uid: null; why: string };

/** `auto`: sticky per room, new rooms to the account with the fewest rooms; an unusable one hands its rooms on. */
export class AccountPool {
  private readonly assigned = new Map<number, number>();

  /** The account a room uses now, and why (logged when it changes). */
  choose(roomId: number, setting: string, accounts: readonly PoolAccount[]): Choice {
    const usable = accounts.filter((a) => a.usable);
    const wanted = setting.trim().toLowerCase();
    if (wanted === 'guest') return this.set(roomId, null, 'RecordingAccount is guest');
    if (/^\d+$/.test(wanted)) {
      const uid = Number(wanted);
      if (usable.some((a) => a.uid === uid)) return this.set(roomId, uid, `RecordingAccount is ${uid}`);
      const fallback = this.leastLoaded(usable, roomId);
      const why = accounts.some((a) => a.uid === uid) ? `account ${uid} cannot be used` : `account ${uid} is not logged in here`;
      return fallback === null ? this.set(roomId, null, `${why}; no other account works, recording as a guest`) : this.set(roomId, fallback, `${why}; using account ${fallback}`);
    }
    const current = this.assigned.get(roomId);
    if (current !== undefined && usable.some((a) => a.uid === current)) return { uid: current, why: 'auto' };
    const next = this.leastLoaded(usable, roomId);
    if (next === null) return this.set(roomId, null, accounts.length ? 'no account works; recording as a guest' : 'no account; recording as a guest');
    return this.set(roomId, next, current === undefined ? 'auto: the account with the fewest rooms' : `auto: account ${current} cannot be used`);
  }

  forget(roomId: number): void {
    this.assigned.delete(roomId);
  }

  /** Rooms assigned to this account now. */
  roomsOf(uid: number): number[] {
    return [...this.assigned].filter(([, u]) => u === uid).map(([r]) => r);
  }

  private set(roomId: number, uid: number | null, why: string): Choice {
    if (uid === null) this.assigned.delete(roomId);
    else this.assigned.set(roomId, uid);
    return { uid, why } as Choice;
  }

  private leastLoaded(usable: readonly PoolAccount[], roomId: number): number | null {
    let best: { uid: number; n: number } | null = null;
    for (const a of usable) {
      let n = 0;
      for (const [r, u] of this.assigned) if (u === a.uid && r !== roomId) n++;
      if (!best || n < best.n) best = { uid: a.uid, n };
    }
    return best?.uid ?? null;
  }
}
