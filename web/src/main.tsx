// The web UI's entry: the shell (navigation, connection state) and the hash router over the pages.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { LANGS, setLang, t, useLang, type Lang } from './i18n';
import { FilesPage } from './pages/files';
import { JobsPage } from './pages/jobs';
import { LogsPage } from './pages/logs';
import { RoomDetailPage } from './pages/room-detail';
import { RoomsPage } from './pages/rooms';
import { SettingsPage } from './pages/settings';
import { WebhooksPage } from './pages/webhooks';
import { useRoute } from './router';
import { store, useStore } from './store';

const NAV = ['rooms', 'settings', 'files', 'jobs', 'webhooks', 'logs'] as const;

function Page({ page, arg }: { page: string; arg: string }) {
  switch (page) {
    case 'room': return <RoomDetailPage roomId={Number(arg)} />;
    case 'settings': return <SettingsPage />;
    case 'files': return <FilesPage dir={arg} />;
    case 'jobs': return <JobsPage />;
    case 'webhooks': return <WebhooksPage />;
    case 'logs': return <LogsPage />;
    default: return <RoomsPage />;
  }
}

function App() {
  const route = useRoute();
  const s = useStore();
  const lang = useLang();
  const [version, setVersion] = useState('');
  useEffect(() => {
    store.start();
    api<{ fullSemVer: string }>('GET', 'api/version').then((v) => setVersion(v.fullSemVer), () => undefined);
  }, []);
  const active = route.page === 'room' ? 'rooms' : route.page;
  return (
    <>
      <header class="top">
        <a class="brand" href="#/rooms">liverec</a>
        <nav>{NAV.map((p) => <a href={`#/${p}`} class={active === p ? 'active' : ''} data-nav={p}>{t(`nav.${p}`)}</a>)}</nav>
        <span class="status">
          <span class={`conn ${s.connected ? 'up' : 'down'}`} title={t('conn.title')} data-connected={String(s.connected)}>{t(s.connected ? 'conn.live' : 'conn.connecting')}</span>
          <select class="lang" aria-label={t('lang.label')} value={lang} data-lang={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
            {LANGS.map((l) => <option value={l}>{t(`lang.${l}`)}</option>)}
          </select>
          <span class="version">{version}</span>
        </span>
      </header>
      {s.error && <p class="notice error">{s.error}</p>}
      {/* Keyed by language: a switch re-mounts the page, so memoised cards and open forms redraw in the new language. */}
      <main data-page={route.page} key={lang}><Page page={route.page} arg={route.arg} /></main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
