// A room's unavailableReason: set from play info, API errors and lasting risk control; one info line per change.
import { errorUnavailable, PLAY_INFO_REASONS, RISK_ERROR_CODES, type UnavailableReason } from '../bilibili/room-availability.js';
import type { ActorOutbox } from './actor-outbox.js';

const DESCRIPTIONS: Record<UnavailableReason, string> = {
  paid: 'a paid live (all_special_types 203): a guest cannot record it',
  password: 'a password room: the stream needs the password',
  guardOnly: 'live for guards (舰长) only: no stream is offered to us',
  drmOnly: 'every stream offered is DRM-protected',
  riskControl: 'the service keeps refusing our calls (risk control: 412 / -352)',
  notFound: 'the service says the room does not exist',
};

export class RoomAvailability {
  reason: UnavailableReason | null = null;
  /** When the current run of risk-control failures began (0 = none). */
  private riskSince = 0;

  constructor(private readonly outbox: ActorOutbox, private readonly riskPauseMs: () => number) {}

  /** True while the reason comes from play info: the room is re-checked with getRoomPlayInfo alone. */
  get checkedByPlayInfo(): boolean {
    return this.reason !== null && PLAY_INFO_REASONS.has(this.reason);
  }

  set(reason: UnavailableReason | null): void {
    if (reason === this.reason) return;
    const before = this.reason;
    this.reason = reason;
    this.outbox.state({ unavailableReason: reason });
    if (reason) this.outbox.log('info', `room cannot be recorded: ${DESCRIPTIONS[reason]}; checking again every interval`, { code: 'ROOM_UNAVAILABLE', unavailableReason: reason });
    else this.outbox.log('info', `room can be recorded again (was ${before})`, { code: 'ROOM_AVAILABLE', previous: before });
  }

  /** Room info arrived: the room exists and the service answers us. */
  infoOk(): void {
    this.riskSince = 0;
    if (this.reason === 'notFound' || this.reason === 'riskControl') this.set(null);
  }

  /** A failed check: a room-level answer sets its reason; risk answers lasting past one API pause set riskControl. */
  failed(code: string | undefined, now = Date.now()): void {
    const direct = errorUnavailable(code);
    if (direct) {
      this.riskSince = 0;
      return this.set(direct);
    }
    if (!code || !RISK_ERROR_CODES.has(code)) return;
    if (this.riskSince === 0) this.riskSince = now;
    else if (now - this.riskSince >= this.riskPauseMs()) this.set('riskControl');
  }
}
