// The room card's badge for unavailableReason: why the service will not let liverec record the room, in Chinese and English.
import type { UnavailableReason } from '../types';

const TEXT: Record<UnavailableReason, { zh: string; en: string; zhLong: string; enLong: string }> = {
  paid: { zh: '付费直播', en: 'paid live', zhLong: '付费直播，游客无法录制', enLong: 'A paid live: a guest cannot record it' },
  password: { zh: '加密直播间', en: 'password room', zhLong: '直播间设有密码', enLong: 'The room needs a password' },
  guardOnly: { zh: '仅舰长可看', en: 'guards only', zhLong: '直播只对舰长开放，没有可录制的流', enLong: 'Live for guards only: no stream is offered' },
  drmOnly: { zh: '仅 DRM 流', en: 'DRM only', zhLong: '所有流都受 DRM 保护', enLong: 'Every stream is DRM-protected' },
  riskControl: { zh: '风控拦截', en: 'risk control', zhLong: '服务持续拒绝请求（412 / -352）', enLong: 'The service keeps refusing calls (412 / -352)' },
  notFound: { zh: '房间不存在', en: 'room not found', zhLong: '服务表示该直播间不存在', enLong: 'The service says the room does not exist' },
};

export function UnavailableBadge({ reason }: { reason: UnavailableReason | null | undefined }) {
  if (!reason) return null;
  const t = TEXT[reason];
  if (!t) return null;
  return (
    <span class="badge unavailable" data-badge="unavailable" data-reason={reason} title={`${t.zhLong}\n${t.enLong}\n每个检查间隔复查一次 / checked again every interval`}>
      {t.zh} · {t.en}
    </span>
  );
}
