// One room on the Rooms page: live state, health, Mbps and pace with a chart, and its buttons.
import { memo } from 'preact/compat';
import { fixed } from '../format';
import type { Point } from '../store';
import type { RoomDto, StatsEntry } from '../types';
import { Sparkline } from './sparkline';
import { UnavailableBadge } from './unavailable-badge';

export interface CardProps {
  room: RoomDto;
  stats: StatsEntry | undefined;
  history: Point[] | undefined;
  onAction(room: RoomDto, action: string): void;
}

function Card({ room, stats, history, onAction }: CardProps) {
  const health = stats?.health ?? (room.streaming ? 'ok' : 'no-stream');
  const act = (action: string) => () => onAction(room, action);
  return (
    <article class={`card ${room.recording ? 'is-recording' : ''}`} data-room-id={room.roomId} data-state={room.streaming ? 'live' : 'offline'}>
      <header>
        <a class="room-name" href={`#/room/${room.roomId}`}>{room.name || `room ${room.roomId}`}</a>
        <span class="room-id">{room.roomId}{room.shortId ? ` · ${room.shortId}` : ''}</span>
      </header>
      <p class="title" title={room.title}>{room.title || '—'}</p>
      <p class="area">{[room.areaNameParent, room.areaNameChild].filter(Boolean).join(' · ') || '—'}</p>
      <div class="badges">
        <span class={`badge ${room.streaming ? 'on' : ''}`} data-badge="streaming">{room.streaming ? 'live' : 'offline'}</span>
        <span class={`badge ${room.recording ? 'rec' : ''}`} data-badge="recording">{room.recording ? 'recording' : 'idle'}</span>
        <span class={`badge ${room.danmakuConnected ? 'on' : ''}`} data-badge="danmaku">danmaku {room.danmakuConnected ? 'on' : 'off'}</span>
        <span class={`badge health-${health}`} data-badge="health">{health}</span>
        <UnavailableBadge reason={room.unavailableReason} />
      </div>
      <div class="figures">
        <span><b>{fixed(stats?.networkMbps)}</b> Mbps</span>
        <span>pace <b>{fixed(stats?.durationRatio)}</b></span>
        <Sparkline points={history ?? []} />
      </div>
      <footer>
        <button data-action="start" onClick={act('start')} disabled={room.recording}>Start</button>
        <button data-action="stop" onClick={act('stop')} disabled={!room.recording && !room.autoRecordForThisSession}>Stop</button>
        <button data-action="split" onClick={act('split')} disabled={!room.recording}>Split</button>
        <label class="toggle"><input type="checkbox" data-action="autorecord" checked={room.autoRecord} onChange={act(room.autoRecord ? 'auto-off' : 'auto-on')} /> auto</label>
        <button class="danger" data-action="remove" onClick={act('remove')}>Remove</button>
      </footer>
    </article>
  );
}

/** Cards redraw only when their own room or stats changed (the chart grows with the stats): hundreds of rooms stay cheap. */
export const RoomCard = memo(Card, (a, b) => a.room === b.room && a.stats === b.stats && a.onAction === b.onAction);
