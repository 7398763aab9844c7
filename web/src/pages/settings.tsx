// Settings: the accounts, the global config (inherits from the defaults), file-name template preview, webhook URLs and their test.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ConfigForm, plainKey, type Values } from '../components/config-form';
import { NoticeLine, useNotice } from '../components/notice';
import { TemplatePreview } from '../components/template-preview';
import { WebhookTest } from '../components/webhook-test';
import { NotifyTest } from '../components/notify-test';
import { AccountsPanel } from '../components/accounts-panel';
import { t } from '../i18n';

export function SettingsPage() {
  const [defaults, setDefaults] = useState<Record<string, unknown> | null>(null);
  const [global, setGlobal] = useState<Values | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    Promise.all([api<Record<string, unknown>>('GET', 'api/config/default'), api<Values>('GET', 'api/config/global')])
      .then(([d, g]) => (setDefaults(d), setGlobal(g)), (e: Error) => say(e.message, true));
  }, []);
  if (!defaults || !global) return <section><NoticeLine notice={notice} /><p>{t('common.loading')}</p></section>;

  const save = async (changes: Values) => {
    try {
      setGlobal(await api<Values>('POST', 'api/config/global', changes));
      say(t('settings.saved'));
    } catch (e) {
      say(t('settings.saveFailed', { error: (e as Error).message }), true);
    }
  };
  return (
    <section>
      <h2>{t('settings.title')}</h2>
      <p class="hint">{t('settings.hint')}</p>
      <NoticeLine notice={notice} />
      <AccountsPanel />
      <ConfigForm
        idPrefix="global" values={global} defaults={defaults} onSave={save}
        inherited={(k) => [defaults[plainKey(k)], 'default']}
        extra={(name, value) => {
          if (name === 'fileNameRecordTemplate') return <TemplatePreview template={String(value ?? '')} />;
          if (name === 'webHookUrlsV2') return <WebhookTest />;
          if (name === 'notifyUrls') return <NotifyTest />;
          return null;
        }}
      />
    </section>
  );
}
