// Logs: a live tail from the event stream (seeded from /api/log/fetch), filtered by level and room.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStore } from '../store';
import type { LogEntry } from '../types';

const LEVELS = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Fatal'];
const levelOf = (log: Record<string, unknown>): string => (typeof log['@l'] === 'string' ? log['@l'] : 'Information');

export function LogTable({ entries }: { entries: LogEntry[] }) {
  return (
    <table class="logs">
      <tbody>
        {entries.map(({ id, log }) => {
          const level = levelOf(log);
          const { '@t': t, '@mt': mt, '@l': _l, '@x': x, RoomId, ProcessId: _p, ...rest } = log;
          return (
            <tr key={id} class={`lvl-${level}`} data-room={RoomId === undefined ? '' : String(RoomId)}>
              <td class="t">{String(t ?? '').slice(11, 23)}</td>
              <td class="l">{level}</td>
              <td class="r">{RoomId === undefined ? '' : String(RoomId)}</td>
              <td class="m">{String(mt ?? '')} <span class="props">{Object.keys(rest).length ? JSON.stringify(rest) : ''}</span>{x ? <pre>{String(x)}</pre> : null}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
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
          <select value={min} onChange={(e) => setMin(e.currentTarget.value)} aria-label="minimum level">{LEVELS.slice(1).map((l) => <option value={l}>{l}+</option>)}</select>
          <select value={room} onChange={(e) => setRoom(e.currentTarget.value)} aria-label="room">
            <option value="">all rooms</option>{rooms.map((r) => <option value={r}>{r}</option>)}
          </select>
          <label class="toggle"><input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} /> follow</label>
        </div>
        <span class="hint">{store.connected ? 'live' : 'reconnecting…'} · {shown.length} lines</span>
      </div>
      <LogTable entries={shown} />
      <div ref={end} />
    </section>
  );
}
