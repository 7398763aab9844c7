// The room card's badge for unavailableReason: why the service will not let liverec record the room.
import { t } from '../i18n';
import type { UnavailableReason } from '../types';

const REASONS: readonly UnavailableReason[] = ['paid', 'password', 'guardOnly', 'drmOnly', 'riskControl', 'notFound'];

export function UnavailableBadge({ reason }: { reason: UnavailableReason | null | undefined }) {
  if (!reason || !REASONS.includes(reason)) return null;
  return (
    <span class="badge unavailable" data-badge="unavailable" data-reason={reason} title={`${t(`unavailable.${reason}.long`)} · ${t('unavailable.recheck')}`}>
      {t(`unavailable.${reason}`)}
    </span>
  );
}
