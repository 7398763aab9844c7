// Room detail: every recordingStats and ioStats field (live, from a per-room event stream), files, events, logs, overrides.
import { useEffect, useState } from 'preact/hooks';
import { api, apiUrl } from '../api';
import { ConfigForm, plainKey, type Values } from '../components/config-form';
import { NoticeLine, useNotice } from '../components/notice';
import { GapBadge, type Gap } from '../components/file-gaps';
import { roomAction, setAutoRecord } from '../components/room-actions';
import { bytes, duration, time } from '../format';
import { useStore } from '../store';
import type { LifecycleEvent, RoomDto } from '../types';
import { LogTable } from './logs';

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

function StatsTable({ title, stats }: { title: string; stats: Record<string, unknown> }) {
  return (
    <table class="kv" data-table={title}>
      <caption>{title}</caption>
      <tbody>{Object.entries(stats).map(([k, v]) => <tr key={k}><th>{k}</th><td data-field={k}>{typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v)}</td></tr>)}</tbody>
    </table>
  );
}

interface FileRow { path: string; size: number | null; duration: number | null; open: string; gaps?: Gap[] }

function filesOf(events: LifecycleEvent[]): FileRow[] {
  const rows = new Map<string, FileRow>();
  for (const e of events) {
    const p = e.EventData.RelativePath;
    if (!p) continue;
    if (e.EventType === 'FileOpening') rows.set(p, { path: p, size: null, duration: null, open: e.EventTimestamp });
    if (e.EventType === 'FileClosed') {
      rows.set(p, { path: p, size: e.EventData.FileSize ?? 0, duration: e.EventData.Duration ?? 0, open: rows.get(p)?.open ?? e.EventTimestamp, gaps: (e.EventData.Gaps as Gap[] | undefined) ?? [] });
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
            say('saved to config.json');
          } catch (e) {
            say(`save failed: ${(e as Error).message}`, true);
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
  if (!room) return <section><p>Room {roomId} is not found (or loading). <a href="#/rooms">All rooms</a></p></section>;
  const events = store.events.filter((e) => e.EventData.RoomId === roomId);
  const logs = store.logs.filter((l) => l.log.RoomId === roomId).slice(-50);
  const act = (a: 'start' | 'stop' | 'split' | 'refresh') => () => roomAction(room, a).then(() => say(`${a}: done`), (e: Error) => say(e.message, true));
  return (
    <section class="detail" data-room-id={roomId}>
      <h2>{room.name || `room ${roomId}`} <small>{roomId}{room.shortId ? ` · ${room.shortId}` : ''}</small></h2>
      <p class="title">{room.title} <span class="area">{room.areaNameParent} · {room.areaNameChild}</span></p>
      <div class="badges">
        <span class={`badge ${room.streaming ? 'on' : ''}`}>{room.streaming ? 'live' : 'offline'}</span>
        <span class={`badge ${room.recording ? 'rec' : ''}`}>{room.recording ? 'recording' : 'idle'}</span>
        <span class={`badge ${room.danmakuConnected ? 'on' : ''}`}>danmaku {room.danmakuConnected ? 'on' : 'off'}</span>
        {room.health && <span class={`badge health-${room.health}`}>{room.health}</span>}
      </div>
      <div class="actions">
        <button data-action="start" onClick={act('start')}>Start</button>
        <button data-action="stop" onClick={act('stop')}>Stop</button>
        <button data-action="split" onClick={act('split')}>Split</button>
        <button data-action="refresh" onClick={act('refresh')}>Refresh info</button>
        <label class="toggle"><input type="checkbox" checked={room.autoRecord} onChange={(e) => setAutoRecord(room, e.currentTarget.checked).catch((err: Error) => say(err.message, true))} /> auto-record</label>
      </div>
      <NoticeLine notice={notice} />
      <div class="two">
        <StatsTable title="recordingStats" stats={room.recordingStats} />
        <StatsTable title="ioStats" stats={room.ioStats} />
      </div>
      <h3>Files</h3>
      <table class="list">
        <thead><tr><th>file</th><th>size</th><th>duration</th><th>opened</th></tr></thead>
        <tbody>
          {filesOf(events).map((f) => (
            <tr key={f.path}>
              <td><a href={apiUrl(`file/${f.path.split('/').map(encodeURIComponent).join('/')}`)} download>{f.path}</a>{f.gaps && f.gaps.length > 0 && <> <GapBadge gaps={f.gaps} /></>}</td>
              <td>{f.size === null ? `${bytes(Number(room.recordingStats.currentFileSize) || 0)} (open)` : bytes(f.size)}</td>
              <td>{f.duration === null ? `${duration(Number(room.recordingStats.fileMaxTimestamp) || 0)} (open)` : duration(f.duration * 1000)}</td>
              <td>{time(f.open)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Recent events</h3>
      <ul class="events">{events.slice(-30).reverse().map((e) => <li key={e.EventId}><time>{time(e.EventTimestamp)}</time> {e.EventType} {e.EventData.RelativePath ?? ''}</li>)}</ul>
      <h3>Log</h3>
      <LogTable entries={logs} />
      <h3>Settings of this room</h3>
      <RoomSettings roomId={roomId} />
    </section>
  );
}
