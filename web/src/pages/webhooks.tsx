// Webhooks: recent deliveries with attempts and status, refreshed by lifecycle events; replay for a failed one.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { dateTime } from '../format';
import { has, t } from '../i18n';
import { useStore } from '../store';
import type { Delivery } from '../types';

export function WebhooksPage() {
  const store = useStore();
  const [list, setList] = useState<Delivery[]>([]);
  const [notice, say] = useNotice();
  const load = () => api<Delivery[]>('GET', 'api/webhook/deliveries').then(setList, (e: Error) => say(e.message, true));
  // No timer: a new lifecycle event is what creates deliveries, and attempts follow within 1 s + 2 s of it.
  const latest = store.events.at(-1)?.EventId;
  useEffect(() => {
    void load();
    const timers = [1200, 3500].map((ms) => setTimeout(load, ms));
    return () => timers.forEach(clearTimeout);
  }, [latest]);
  const replay = async (d: Delivery) => {
    try {
      const r = await api<{ ok: boolean; status: number | null; error: string | null }>('POST', 'api/webhook/replay', { eventId: d.eventId, url: d.url });
      say(r.ok ? t('webhooks.replayed', { event: d.eventType, url: d.url, status: r.status ?? '' }) : t('webhooks.replayFailed', { error: r.error ?? '' }), !r.ok);
    } catch (e) {
      say(t('webhooks.replayFailed', { error: (e as Error).message }), true);
    }
  };
  return (
    <section>
      <div class="toolbar"><h2>{t('webhooks.title')}</h2><button onClick={() => void load()}>{t('common.refresh')}</button></div>
      <NoticeLine notice={notice} />
      {list.length === 0 ? <p class="empty">{t('webhooks.empty')}</p> : (
        <div class="table-wrap"><table class="list">
          <thead><tr><th>{t('col.event')}</th><th>{t('col.version')}</th><th>{t('col.url')}</th><th>{t('col.state')}</th><th>{t('col.attempts')}</th><th>{t('col.last')}</th><th>{t('col.updated')}</th><th /></tr></thead>
          <tbody>
            {list.map((d) => (
              <tr key={`${d.eventId}${d.url}`} class={`st-${d.state}`} data-event-id={d.eventId}>
                <td class="nowrap">{has(`event.${d.eventType}`) ? t(`event.${d.eventType}`) : d.eventType}</td><td>v{d.version}</td><td class="url">{d.url}</td><td class="nowrap">{t(`delivery.${d.state}`)}</td><td>{d.attempts}/3</td>
                <td>{d.lastStatus ?? ''} {d.lastError ?? ''}</td><td class="nowrap">{dateTime(d.updatedAt)}</td>
                <td>{d.state === 'given-up' && <button data-action="replay" onClick={() => void replay(d)}>{t('webhooks.replay')}</button>}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
    </section>
  );
}
