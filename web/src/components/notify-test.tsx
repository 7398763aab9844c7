// "Send test notification": one message to every saved NotifyUrls target, results listed per target (secrets hidden).
import { useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';

interface Result { target: string; ok: boolean; error: string | null }

export function NotifyTest() {
  const [results, setResults] = useState<Result[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    setBusy(true);
    try {
      setResults(await api<Result[]>('POST', 'api/notify/test', {}));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="webhook-test notify-test">
      <button type="button" data-action="notify-test" onClick={send} disabled={busy}>{t(busy ? 'notifyTest.sending' : 'notifyTest.send')}</button>
      <span class="hint">{t('webhookTest.hint')}</span>
      {error && <p class="error">{error}</p>}
      {results && results.length === 0 && <p class="hint" data-notify-none>{t('notifyTest.none')}</p>}
      {results && results.length > 0 && (
        <ul class="results" data-notify-results>{results.map((r) => <li class={r.ok ? 'ok' : 'error'}>{r.target}: {r.ok ? t('notifyTest.sent') : r.error}</li>)}</ul>
      )}
    </div>
  );
}
