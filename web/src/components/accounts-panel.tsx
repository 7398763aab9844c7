// Settings → Accounts: the logins rooms record with, a QR login drawn here (no third-party service), check and remove.
import QRCode from 'qrcode';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { dateTime } from '../format';
import { t } from '../i18n';
import { NoticeLine, useNotice } from './notice';

interface Account {
  uid: number; name: string; face: string; source: 'qr' | 'config'; state: 'valid' | 'refresh-failed' | 'logged-out';
  validUntil: string | null; lastRefreshed: string | null; lastError: string | null; rooms: number[];
}
type QrState = 'waiting' | 'scanned' | 'confirmed' | 'expired';
interface Qr { key: string; svg: string; state: QrState; uid?: number }

const POLL_MS = 1500;

export function AccountsPanel() {
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  const [qr, setQr] = useState<Qr | null>(null);
  const [notice, say] = useNotice();
  const load = () => api<Account[]>('GET', 'api/accounts').then(setAccounts, (e: Error) => say(e.message, true));
  useEffect(() => void load(), []);

  // While a QR login is under way: ask its state until it ends.
  useEffect(() => {
    if (!qr || qr.state === 'confirmed' || qr.state === 'expired') return;
    const timer = setTimeout(async () => {
      try {
        const s = await api<{ state: QrState; uid?: number }>('GET', `api/accounts/qrcode/${qr.key}`);
        setQr({ ...qr, state: s.state, uid: s.uid });
        if (s.state === 'confirmed') void load();
      } catch (e) {
        say((e as Error).message, true);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [qr]);

  const login = async () => {
    try {
      const r = await api<{ key: string; url: string }>('POST', 'api/accounts/qrcode');
      setQr({ key: r.key, svg: await QRCode.toString(r.url, { type: 'svg', margin: 2 }), state: 'waiting' });
    } catch (e) {
      say((e as Error).message, true);
    }
  };
  const act = async (a: Account, what: 'refresh' | 'remove') => {
    try {
      if (what === 'remove') await api('DELETE', `api/accounts/${a.uid}`);
      else await api('POST', `api/accounts/${a.uid}/refresh`);
      say(t(what === 'remove' ? 'accounts.removed' : 'accounts.checked', { uid: a.uid }));
      void load();
    } catch (e) {
      say((e as Error).message, true);
    }
  };

  return (
    <div class="accounts" data-accounts>
      <h3>{t('accounts.title')}</h3>
      <p class="hint">{t('accounts.hint')}</p>
      <NoticeLine notice={notice} />
      {accounts && accounts.length === 0 && <p class="hint" data-accounts-none>{t('accounts.none')}</p>}
      <ul class="account-list">
        {(accounts ?? []).map((a) => (
          <li data-account={a.uid} data-state={a.state} class={`account ${a.state}`}>
            <strong>{a.name || a.uid}</strong> <span class="hint">uid {a.uid} · {t(`accounts.source.${a.source}`)}</span>{' '}
            <span class={`badge state-${a.state}`}>{t(`accounts.state.${a.state}`)}</span>
            <span class="hint"> · {t('accounts.validUntil', { date: a.validUntil ? dateTime(a.validUntil) : '—' })} · {t('accounts.lastRefreshed', { date: a.lastRefreshed ? dateTime(a.lastRefreshed) : t('accounts.never') })} · {t('accounts.rooms', { n: a.rooms.length })}</span>
            {a.lastError && <span class="error"> {a.lastError}</span>}
            <span class="actions">
              <button type="button" data-action="account-refresh" onClick={() => act(a, 'refresh')}>{t('accounts.refresh')}</button>
              {a.source === 'qr' && <button type="button" data-action="account-remove" onClick={() => act(a, 'remove')}>{t('accounts.remove')}</button>}
            </span>
          </li>
        ))}
      </ul>
      <button type="button" data-action="account-login" onClick={login} disabled={qr !== null && (qr.state === 'waiting' || qr.state === 'scanned')}>{t('accounts.login')}</button>
      {qr && (
        <div class="qr-login" data-qr-key={qr.key} data-qr-state={qr.state}>
          {(qr.state === 'waiting' || qr.state === 'scanned') && <img class="qr" alt="QR" width={200} height={200} src={`data:image/svg+xml;utf8,${encodeURIComponent(qr.svg)}`} />}
          <p class={qr.state === 'expired' ? 'error' : 'hint'}>{t(`accounts.qr.${qr.state}`, { uid: qr.uid ?? '' })}</p>
          {qr.state === 'waiting' && <p class="hint">{t('accounts.scanHint')}</p>}
        </div>
      )}
    </div>
  );
}
