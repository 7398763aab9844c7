// Retention's dry run (GET /api/retention): what the next run deletes and why, and what it keeps although old.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { bytes, dateTime } from '../format';
import { t } from '../i18n';

interface Preview {
  enabled: boolean; totalBytes: number; freeBytes: number | null; protected: string[];
  deletions: { recording: string; files: string[]; bytes: number; modifiedAt: string; reason: string }[];
}

export function RetentionPreview({ refresh }: { refresh: unknown }) {
  const [p, setP] = useState<Preview | null>(null);
  useEffect(() => {
    api<Preview>('GET', 'api/retention').then(setP, () => setP(null));
  }, [refresh]);
  if (!p) return null;
  return (
    <section class="retention" data-retention={p.enabled ? 'on' : 'off'}>
      <h3>{t('retention.title')}</h3>
      {!p.enabled ? <p class="empty">{t('retention.off')}</p> : (
        <>
          <p class="summary">{t('retention.summary', { total: bytes(p.totalBytes), free: p.freeBytes === null ? '—' : bytes(p.freeBytes), n: p.deletions.length })}</p>
          {p.protected.length > 0 && <p class="hint">{t('retention.protected', { n: p.protected.length })}</p>}
          {p.deletions.length === 0 ? <p class="empty">{t('retention.none')}</p> : (
            <div class="table-wrap"><table class="list">
              <thead><tr><th>{t('col.recording')}</th><th>{t('col.size')}</th><th>{t('col.modified')}</th><th>{t('col.reason')}</th></tr></thead>
              <tbody>
                {p.deletions.map((d) => (
                  <tr key={d.recording} data-delete={d.recording}>
                    <td class="url" title={d.files.join('\n')}>{d.recording}</td><td class="nowrap">{bytes(d.bytes)}</td>
                    <td class="nowrap">{dateTime(d.modifiedAt)}</td><td class="nowrap">{t(`retention.reason.${d.reason}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table></div>
          )}
        </>
      )}
    </section>
  );
}
