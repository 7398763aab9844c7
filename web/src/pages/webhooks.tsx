// Webhooks: recent deliveries with attempts and status, refreshed by lifecycle events; replay for a failed one.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { time } from '../format';
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
      say(r.ok ? `replayed ${d.eventType} to ${d.url}: HTTP ${r.status}` : `replay failed: ${r.error}`, !r.ok);
    } catch (e) {
      say(`replay failed: ${(e as Error).message}`, true);
    }
  };
  return (
    <section>
      <div class="toolbar"><h2>Webhook deliveries</h2><button onClick={() => void load()}>Refresh</button></div>
      <NoticeLine notice={notice} />
      {list.length === 0 ? <p class="empty">No deliveries yet. Set WebHookUrlsV2 (or WebHookUrls) in Settings.</p> : (
        <table class="list">
          <thead><tr><th>event</th><th>v</th><th>url</th><th>state</th><th>attempts</th><th>last</th><th>updated</th><th /></tr></thead>
          <tbody>
            {list.map((d) => (
              <tr key={`${d.eventId}${d.url}`} class={`st-${d.state}`}>
                <td>{d.eventType}</td><td>{d.version}</td><td class="url">{d.url}</td><td>{d.state}</td><td>{d.attempts}/3</td>
                <td>{d.lastStatus ?? ''} {d.lastError ?? ''}</td><td>{time(d.updatedAt)}</td>
                <td>{d.state === 'given-up' && <button data-action="replay" onClick={() => void replay(d)}>Replay</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
