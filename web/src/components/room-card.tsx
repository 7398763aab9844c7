// One room on the Rooms page: live state, health, bitrate, pace and session figures, the last hour's chart, and its buttons.
import { memo } from 'preact/compat';
import { bitrate, bytes, DASH, duration, pace } from '../format';
import type { History } from '../history';
import { t } from '../i18n';
import type { RoomDto, StatsEntry } from '../types';
import { num } from '../types';
import { HistoryChart } from './chart';
import { UnavailableBadge } from './unavailable-badge';

export interface CardProps {
  room: RoomDto;
  stats: StatsEntry | undefined;
  history: History | undefined;
  historyVersion: number;
  onAction(room: RoomDto, action: string): void;
}

function Card({ room, stats, history, historyVersion, onAction }: CardProps) {
  const health = stats?.health ?? (room.streaming ? 'ok' : 'no-stream');
  const act = (action: string) => () => onAction(room, action);
  return (
    <article class={`card ${room.recording ? 'is-recording' : ''}`} data-room-id={room.roomId} data-state={room.streaming ? 'live' : 'offline'}>
      <header>
        <a class="room-name" href={`#/room/${room.roomId}`}>{room.name || t('room.unnamed', { id: room.roomId })}</a>
        <span class="room-id">{room.roomId}{room.shortId ? ` · ${room.shortId}` : ''}</span>
      </header>
      <p class="title" title={room.title}>{room.title || DASH}</p>
      <p class="area">{[room.areaNameParent, room.areaNameChild].filter(Boolean).join(' · ') || DASH}</p>
      <div class="badges">
        <span class={`badge ${room.streaming ? 'on' : ''}`} data-badge="streaming">{t(room.streaming ? 'room.live' : 'room.offline')}</span>
        <span class={`badge ${room.recording ? 'rec' : ''}`} data-badge="recording">{t(room.recording ? 'room.recording' : 'room.idle')}</span>
        <span class={`badge ${room.danmakuConnected ? 'on' : ''}`} data-badge="danmaku">{t(room.danmakuConnected ? 'room.danmakuOn' : 'room.danmakuOff')}</span>
        <span class={`badge health-${health}`} data-badge="health" data-health={health}>{t(`health.${health}`)}</span>
        <UnavailableBadge reason={room.unavailableReason} />
      </div>
      <div class="figures">
        <span><b>{bitrate(stats?.networkMbps)}</b></span>
        <span>{t('room.pace')} <b>{pace(stats?.durationRatio)}</b></span>
        <span>{room.recording ? `${duration(num(stats?.sessionDuration))} · ${bytes(stats?.totalOutputBytes)}` : ''}</span>
      </div>
      <HistoryChart history={history} version={historyVersion} height={110} />
      <footer>
        <button data-action="start" onClick={act('start')} disabled={room.recording}>{t('action.start')}</button>
        <button data-action="stop" onClick={act('stop')} disabled={!room.recording && !room.autoRecordForThisSession}>{t('action.stop')}</button>
        <button data-action="split" onClick={act('split')} disabled={!room.recording}>{t('action.split')}</button>
        <label class="toggle"><input type="checkbox" data-action="autorecord" checked={room.autoRecord} onChange={act(room.autoRecord ? 'auto-off' : 'auto-on')} /> {t('room.auto')}</label>
        <button class="danger" data-action="remove" onClick={act('remove')}>{t('action.remove')}</button>
      </footer>
    </article>
  );
}

/** Cards redraw only when their own room, stats or history changed: hundreds of rooms stay cheap. */
export const RoomCard = memo(Card, (a, b) => a.room === b.room && a.stats === b.stats && a.history === b.history && a.onAction === b.onAction);
