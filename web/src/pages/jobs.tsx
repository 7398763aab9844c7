// Jobs: the post-file jobs (remux, danmaku ASS, command) of each closed file, with state, attempts and errors.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { RetentionPreview } from '../components/retention-preview';
import { dateTime } from '../format';
import { has, t } from '../i18n';
import { useStore } from '../store';
import type { PostJob } from '../types';

const ACTIVE = new Set(['pending', 'running', 'retrying']);

export function JobsPage() {
  const store = useStore();
  const [list, setList] = useState<PostJob[]>([]);
  const [notice, say] = useNotice();
  const load = () => api<PostJob[]>('GET', 'api/jobs').then(setList, (e: Error) => say(e.message, true));
  // Refreshed by lifecycle events (FileClosed queues jobs, PostProcessed ends them) and, while jobs run, every 2 s.
  const latest = store.events.at(-1)?.EventId;
  const active = list.some((j) => ACTIVE.has(j.state));
  useEffect(() => {
    void load();
  }, [latest]);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [active]);
  const failed = list.filter((j) => j.state === 'failed' || j.state === 'done-with-warnings').length;
  return (
    <section>
      <div class="toolbar"><h2>{t('jobs.title')}</h2><button onClick={() => void load()}>{t('common.refresh')}</button></div>
      <NoticeLine notice={notice} />
      {list.length > 0 && <p class="summary" data-jobs-summary>{t('jobs.summary', { active: list.filter((j) => ACTIVE.has(j.state)).length, failed })}</p>}
      {list.length === 0 ? <p class="empty">{t('jobs.empty')}</p> : (
        <div class="table-wrap"><table class="list">
          <thead><tr><th>{t('col.file')}</th><th>{t('col.room')}</th><th>{t('col.job')}</th><th>{t('col.state')}</th><th>{t('col.attempts')}</th><th>{t('col.result')}</th><th>{t('col.updated')}</th></tr></thead>
          <tbody>
            {list.map((j) => (
              <tr key={j.id} class={`st-${j.state}`} data-job={j.kind} data-state={j.state}>
                <td class="url">{j.relativePath}</td><td>{j.roomId}</td>
                <td class="nowrap">{has(`jobkind.${j.kind}`) ? t(`jobkind.${j.kind}`) : j.kind}</td>
                <td class="nowrap">{has(`jobstate.${j.state}`) ? t(`jobstate.${j.state}`) : j.state}</td><td>{j.attempts}</td>
                <td>{j.error ?? j.output ?? ''}{j.nextAttemptAt ? ` (${t('jobs.retryAt', { time: dateTime(j.nextAttemptAt) })})` : ''}
                  {j.skipped?.length ? (
                    <div class="skipped" data-skipped={j.skipped.length}>{t('jobs.skipped', {
                      ranges: j.skipped.map((r) => t('jobs.skippedRange', { offset: r.offset, bytes: r.bytes, reason: r.reason })).join('; '),
                    })}</div>
                  ) : null}
                </td>
                <td class="nowrap">{dateTime(j.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
      <RetentionPreview refresh={latest} />
    </section>
  );
}
