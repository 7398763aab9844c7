// The web UI's entry: the shell (navigation, connection state) and the hash router over the pages.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { FilesPage } from './pages/files';
import { LogsPage } from './pages/logs';
import { RoomDetailPage } from './pages/room-detail';
import { RoomsPage } from './pages/rooms';
import { SettingsPage } from './pages/settings';
import { WebhooksPage } from './pages/webhooks';
import { useRoute } from './router';
import { store, useStore } from './store';

const NAV: [string, string][] = [['rooms', 'Rooms'], ['settings', 'Settings'], ['files', 'Files'], ['webhooks', 'Webhooks'], ['logs', 'Logs']];

function Page({ page, arg }: { page: string; arg: string }) {
  switch (page) {
    case 'room': return <RoomDetailPage roomId={Number(arg)} />;
    case 'settings': return <SettingsPage />;
    case 'files': return <FilesPage dir={arg} />;
    case 'webhooks': return <WebhooksPage />;
    case 'logs': return <LogsPage />;
    default: return <RoomsPage />;
  }
}

function App() {
  const route = useRoute();
  const s = useStore();
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
        <nav>{NAV.map(([p, label]) => <a href={`#/${p}`} class={active === p ? 'active' : ''} data-nav={p}>{label}</a>)}</nav>
        <span class={`conn ${s.connected ? 'up' : 'down'}`} title="event stream" data-connected={String(s.connected)}>{s.connected ? 'live' : 'connecting…'}</span>
        <span class="version">{version}</span>
      </header>
      {s.error && <p class="notice error">{s.error}</p>}
      <main data-page={route.page}><Page page={route.page} arg={route.arg} /></main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
