// "Send test notification": one message to every saved NotifyUrls target, results listed per target (secrets hidden).
import { t } from '../i18n';
import { useSend } from './use-send';

interface Result { target: string; ok: boolean; error: string | null }

export function NotifyTest() {
  const { results, busy, error, send } = useSend<Result>('api/notify/test');
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
