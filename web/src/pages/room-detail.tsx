// Room detail: every recordingStats and ioStats field (live, from a per-room event stream), files, events, logs, overrides.
import { useEffect, useState } from 'preact/hooks';
import { api, apiUrl } from '../api';
import { ConfigForm, plainKey, type Values } from '../components/config-form';
import { NoticeLine, useNotice } from '../components/notice';
import { GapBadge, type Gap } from '../components/file-gaps';
import { roomAction, setAutoRecord } from '../components/room-actions';
import { HistoryChart } from '../components/chart';
import { LivePreview } from '../components/live-preview';
import { bytes, dateTime, DASH, duration } from '../format';
import { has, t } from '../i18n';
import { formatStat } from '../stat-fields';
import { useStore } from '../store';
import type { LifecycleEvent, RoomDto } from '../types';
import { LogTable } from './logs';
import { sourceOfEvent } from '../source-labels';
import { SourceBadge } from '../components/source-badge';
import type { RecordingSource } from '../types';

type Detail = RoomDto & { health?: string };

function useRoomStream(roomId: number): Detail | null {
  const [room, setRoom] = useState<Detail | null>(null);
  useEffect(() => {
    api<RoomDto>('GET', `api/room/${roomId}`).then(setRoom, () => setRoom(null));
    const source = new EventSource(apiUrl(`api/events?room=${roomId}`));
    source.addEventListener('room-stats', (e) => setRoom(JSON.parse((e as MessageEvent).data) as Detail));
    return () => source.close();
  }, [roomId]);
  return room;
}

/** Every field, labelled in the page's language and shown in human units; the raw wire value stays in data-value. */
function StatsTable({ name, stats }: { name: 'recordingStats' | 'ioStats'; stats: Record<string, unknown> }) {
  return (
    <table class="kv" data-table={name}>
      <caption>{t(`detail.${name}`)}</caption>
      <tbody>
        {Object.entries(stats).map(([k, v]) => (
          <tr key={k}><th title={k}>{t(`stat.${k}`)}</th><td data-field={k} data-value={String(v)}>{formatStat(k, v)}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

interface FileRow { path: string; size: number | null; duration: number | null; open: string; source: RecordingSource | null; gaps?: Gap[] }

function filesOf(events: LifecycleEvent[]): FileRow[] {
  const rows = new Map<string, FileRow>();
  for (const e of events) {
    const p = e.EventData.RelativePath;
    if (!p) continue;
    if (e.EventType === 'FileOpening') rows.set(p, { path: p, size: null, duration: null, open: e.EventTimestamp, source: sourceOfEvent(e) });
    if (e.EventType === 'FileClosed') {
      rows.set(p, { path: p, size: e.EventData.FileSize ?? 0, duration: e.EventData.Duration ?? 0, open: rows.get(p)?.open ?? e.EventTimestamp, source: sourceOfEvent(e), gaps: (e.EventData.Gaps as Gap[] | undefined) ?? [] });
    }
  }
  return [...rows.values()].reverse();
}

function RoomSettings({ roomId }: { roomId: number }) {
  const [data, setData] = useState<{ room: Values; global: Values; defaults: Record<string, unknown> } | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    Promise.all([api<Values>('GET', `api/room/${roomId}/config`), api<Values>('GET', 'api/config/global'), api<Record<string, unknown>>('GET', 'api/config/default')])
      .then(([room, global, defaults]) => setData({ room, global, defaults }), (e: Error) => say(e.message, true));
  }, [roomId]);
  if (!data) return <NoticeLine notice={notice} />;
  return (
    <div>
      <NoticeLine notice={notice} />
      <ConfigForm
        idPrefix="room" values={data.room} defaults={data.defaults}
        inherited={(k) => (data.global[k]?.hasValue ? [data.global[k].value, 'global'] : [data.defaults[plainKey(k)], 'default'])}
        onSave={async (changes) => {
          try {
            setData({ ...data, room: await api<Values>('POST', `api/room/${roomId}/config`, changes) });
            say(t('settings.saved'));
          } catch (e) {
            say(t('settings.saveFailed', { error: (e as Error).message }), true);
          }
        }}
      />
    </div>
  );
}

export function RoomDetailPage({ roomId }: { roomId: number }) {
  const store = useStore();
  const room = useRoomStream(roomId);
  const [notice, say] = useNotice();
  if (!room) return <section><p>{t('detail.notFound', { id: roomId })} <a href="#/rooms">{t('detail.allRooms')}</a></p></section>;
  const events = store.events.filter((e) => e.EventData.RoomId === roomId);
  const logs = store.logs.filter((l) => l.log.RoomId === roomId).slice(-50);
  const files = filesOf(events);
  const act = (a: 'start' | 'stop' | 'split' | 'refresh') => () => roomAction(room, a).then(() => say(t('detail.done', { action: t(`action.${a}`) })), (e: Error) => say(e.message, true));
  return (
    <section class="detail" data-room-id={roomId}>
      <h2>{room.name || t('room.unnamed', { id: roomId })} <small>{roomId}{room.shortId ? ` · ${room.shortId}` : ''}</small></h2>
      <p class="title" data-field="title">{room.title || DASH}</p>
      {(room.areaNameParent || room.areaNameChild) && <p class="area" data-field="area">{t('detail.area')} {[room.areaNameParent, room.areaNameChild].filter(Boolean).join(' · ')}</p>}
      <div class="badges">
        <span class={`badge ${room.streaming ? 'on' : ''}`}>{t(room.streaming ? 'room.live' : 'room.offline')}</span>
        <span class={`badge ${room.recording ? 'rec' : ''}`}>{t(room.recording ? 'room.recording' : 'room.idle')}</span>
        <span class={`badge ${room.danmakuConnected ? 'on' : ''}`}>{t(room.danmakuConnected ? 'room.danmakuOn' : 'room.danmakuOff')}</span>
        {room.health && <span class={`badge health-${room.health}`}>{t(`health.${room.health}`)}</span>}
        {room.recordingSource && <SourceBadge source={room.recordingSource} />}
      </div>
      <div class="actions">
        {/* As on the room cards: no start while recording, no split while not, no stop with nothing to stop. */}
        {(['start', 'stop', 'split', 'refresh'] as const).map((a) => (
          <button data-action={a} onClick={act(a)} disabled={a === 'start' ? room.recording : a === 'split' ? !room.recording : a === 'stop' ? !room.recording && !room.autoRecordForThisSession : false}>{t(`action.${a}`)}</button>
        ))}
        <label class="toggle"><input type="checkbox" checked={room.autoRecord} onChange={(e) => setAutoRecord(room, e.currentTarget.checked).catch((err: Error) => say(err.message, true))} /> {t('rooms.autoRecord')}</label>
      </div>
      <NoticeLine notice={notice} />
      {room.recording && <LivePreview roomId={roomId} path={files.find((f) => f.size === null)?.path ?? null} fileSeconds={(Number(room.recordingStats.fileMaxTimestamp) || 0) / 1000} />}
      <h3>{t('chart.title')}</h3>
      <HistoryChart history={store.history.get(room.objectId)} version={store.historyVersion} height={200} withBytes />
      <div class="two">
        <StatsTable name="recordingStats" stats={room.recordingStats} />
        <StatsTable name="ioStats" stats={room.ioStats} />
      </div>
      <h3>{t('detail.files')}</h3>
      {files.length === 0 ? <p class="empty">{t('detail.noFiles')}</p> : <div class="table-wrap"><table class="list">
        <thead><tr><th>{t('col.file')}</th><th>{t('source.column')}</th><th>{t('col.size')}</th><th>{t('col.duration')}</th><th>{t('col.opened')}</th></tr></thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path}>
              <td><a href={apiUrl(`file/${f.path.split('/').map(encodeURIComponent).join('/')}`)} download>{f.path}</a>{f.gaps && f.gaps.length > 0 && <> <GapBadge gaps={f.gaps} /></>}</td>
              <td>{f.source && <SourceBadge source={f.source} />}</td>
              <td class="nowrap">{f.size === null ? `${bytes(Number(room.recordingStats.currentFileSize) || 0)} ${t('detail.open')}` : bytes(f.size)}</td>
              <td class="nowrap">{f.duration === null ? `${duration(Number(room.recordingStats.fileMaxTimestamp) || 0)} ${t('detail.open')}` : duration(f.duration * 1000)}</td>
              <td class="nowrap">{dateTime(f.open)}</td>
            </tr>
          ))}
        </tbody>
      </table></div>}
      <h3>{t('detail.events')}</h3>
      <ul class="events">
        {events.slice(-30).reverse().map((e) => (
          <li key={e.EventId}><time>{dateTime(e.EventTimestamp)}</time> {has(`event.${e.EventType}`) ? t(`event.${e.EventType}`) : e.EventType} <span class="path">{e.EventData.RelativePath ?? ''}</span></li>
        ))}
      </ul>
      <h3>{t('detail.log')}</h3>
      <LogTable entries={logs} />
      <h3>{t('detail.settings')}</h3>
      <RoomSettings roomId={roomId} />
    </section>
  );
}
