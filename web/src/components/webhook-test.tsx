// "Send test event": one attempt to every configured webhook URL, results listed per URL.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';

interface Result { url: string; version: number; ok: boolean; status: number | null; error: string | null }

export function WebhookTest() {
  const [results, setResults] = useState<Result[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    setBusy(true);
    try {
      setResults(await api<Result[]>('POST', 'api/webhook/test', {}));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="webhook-test">
      <button type="button" data-action="webhook-test" onClick={send} disabled={busy}>{t(busy ? 'webhookTest.sending' : 'webhookTest.send')}</button>
      <span class="hint">{t('webhookTest.hint')}</span>
      {error && <p class="error">{error}</p>}
      {results && results.length === 0 && <p class="hint">{t('webhookTest.none')}</p>}
      {results && results.length > 0 && (
        <ul class="results">{results.map((r) => <li class={r.ok ? 'ok' : 'error'}>v{r.version} {r.url}: {r.ok ? `HTTP ${r.status}` : r.error}</li>)}</ul>
      )}
    </div>
  );
}
