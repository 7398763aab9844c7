// Logs: a live tail from the event stream (seeded from /api/log/fetch) as level, time, room and message, JSON on demand.
import { useEffect, useRef, useState } from 'preact/hooks';
import { dateTime } from '../format';
import { t } from '../i18n';
import { useStore } from '../store';
import type { LogEntry } from '../types';

const LEVELS = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Fatal'];
const levelOf = (log: Record<string, unknown>): string => (typeof log['@l'] === 'string' ? log['@l'] : 'Information');

/** CLEF's message template with its {Property} holes filled from the entry (`@m` wins when the logger rendered one). */
function message(log: Record<string, unknown>): string {
  if (typeof log['@m'] === 'string') return log['@m'];
  const template = String(log['@mt'] ?? '');
  return template.replace(/\{@?(\w+)(?::[^}]*)?\}/g, (m, name: string) => (name in log ? (typeof log[name] === 'string' ? String(log[name]) : JSON.stringify(log[name])) : m));
}

const HIDDEN = new Set(['@t', '@mt', '@m', '@l', '@x', '@i', 'RoomId', 'ProcessId']);

/** The entry's other properties as short `name=value` pairs; anything long stays in the JSON view. */
function props(log: Record<string, unknown>): string {
  return Object.entries(log)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .filter((p) => p.length <= 120)
    .join('  ');
}

function LogRow({ id, log }: LogEntry) {
  const [open, setOpen] = useState(false);
  const level = levelOf(log);
  const room = log.RoomId === undefined ? '' : String(log.RoomId);
  return (
    <li class={`log lvl-${level}`} data-room={room} data-log-id={id}>
      <span class="l" title={level}>{t(`level.${LEVELS.includes(level) ? level : 'Information'}`)}</span>
      <time class="t">{dateTime(String(log['@t'] ?? ''))}</time>
      <span class="r">{room}</span>
      <span class="m">
        {message(log)}
        {props(log) && <span class="props">{props(log)}</span>}
        <button type="button" class="json-toggle" aria-expanded={open} title={t('logs.jsonShow')} onClick={() => setOpen(!open)}>{t('logs.json')}</button>
        {typeof log['@x'] === 'string' && <pre class="x">{log['@x']}</pre>}
        {open && <pre class="json">{JSON.stringify(log, null, 2)}</pre>}
      </span>
    </li>
  );
}

/** The log lines as a list that wraps on narrow screens: never wider than the page. */
export function LogTable({ entries }: { entries: LogEntry[] }) {
  return (
    <div class="logs">
      <div class="log head" aria-hidden="true">
        <span class="l">{t('col.level')}</span><span class="t">{t('col.time')}</span><span class="r">{t('col.room')}</span><span class="m">{t('col.message')}</span>
      </div>
      <ol class="log-lines">{entries.map((e) => <LogRow key={e.id} {...e} />)}</ol>
    </div>
  );
}

export function LogsPage() {
  const store = useStore();
  const [min, setMin] = useState('Debug');
  const [room, setRoom] = useState('');
  const [follow, setFollow] = useState(true);
  const end = useRef<HTMLDivElement>(null);
  const minIndex = LEVELS.indexOf(min);
  const shown = store.logs.filter(({ log }) => LEVELS.indexOf(levelOf(log)) >= minIndex && (room === '' || String(log.RoomId ?? '') === room)).slice(-500);
  useEffect(() => {
    if (follow) end.current?.scrollIntoView({ block: 'end' });
  });
  const rooms = [...new Set(store.logs.map((l) => l.log.RoomId).filter((r) => r !== undefined).map(String))].sort();
  return (
    <section>
      <div class="toolbar">
        <div class="controls">
          <select value={min} onChange={(e) => setMin(e.currentTarget.value)} aria-label={t('logs.minLevel')}>
            {LEVELS.slice(1).map((l) => <option value={l}>{t('level.atLeast', { level: t(`level.${l}`) })}</option>)}
          </select>
          <select value={room} onChange={(e) => setRoom(e.currentTarget.value)} aria-label={t('col.room')}>
            <option value="">{t('logs.allRooms')}</option>{rooms.map((r) => <option value={r}>{r}</option>)}
          </select>
          <label class="toggle"><input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} /> {t('logs.follow')}</label>
        </div>
        <span class="hint">{t(store.connected ? 'logs.live' : 'logs.reconnecting')} · {t('logs.lines', { n: shown.length })}</span>
      </div>
      <LogTable entries={shown} />
      <div ref={end} />
    </section>
  );
}
