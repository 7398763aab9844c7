// "Send test event": one attempt to every configured webhook URL, results listed per URL.
import { t } from '../i18n';
import { useSend } from './use-send';

interface Result { url: string; version: number; ok: boolean; status: number | null; error: string | null }

export function WebhookTest() {
  const { results, busy, error, send } = useSend<Result>('api/webhook/test');
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
