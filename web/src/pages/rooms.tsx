// Rooms: a card per room, add by id / short id / live URL, filter and sort, and the room commands.
import { useCallback, useState } from 'preact/hooks';
import { parseRoomInput } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { addRoom, removeRoom, roomAction, setAutoRecord } from '../components/room-actions';
import { RoomCard } from '../components/room-card';
import { useStore } from '../store';
import { num, type RoomDto } from '../types';

const PAGE = 200;
type Sort = 'id' | 'name' | 'state' | 'mbps';
type Filter = 'all' | 'recording' | 'live' | 'offline' | 'problem';

const stateRank = (r: RoomDto): number => (r.recording ? 0 : r.streaming ? 1 : 2);

export function RoomsPage() {
  const store = useStore();
  const [input, setInput] = useState('');
  const [auto, setAuto] = useState(true);
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [sort, setSort] = useState<Sort>('id');
  const [limit, setLimit] = useState(PAGE);
  const [notice, say] = useNotice();

  const onAction = useCallback(async (room: RoomDto, action: string) => {
    try {
      if (action === 'remove') {
        if (!confirm(`Remove room ${room.roomId}? Its recording stops.`)) return;
        await removeRoom(room);
      } else if (action === 'auto-on' || action === 'auto-off') await setAutoRecord(room, action === 'auto-on');
      else await roomAction(room, action as 'start');
      say(`${action}: room ${room.roomId}`);
    } catch (err) {
      say(`${action} failed: ${(err as Error).message}`, true);
    }
  }, []);

  const add = async (e: Event) => {
    e.preventDefault();
    const id = parseRoomInput(input);
    if (id === null) return say('enter a room id, a short id or a live.bilibili.com URL', true);
    try {
      const room = await addRoom(id, auto);
      setInput('');
      say(`added room ${room.roomId}`);
    } catch (err) {
      say(`add failed: ${(err as Error).message}`, true);
    }
  };

  const rooms = [...store.rooms.values()];
  const needle = text.trim().toLowerCase();
  // Filtering and sorting 1000 rooms takes well under a millisecond; the DOM is the cost, so it is capped at `limit` cards.
  const shown = (() => {
    const list = rooms.filter((r) => {
      if (needle && !`${r.roomId} ${r.shortId} ${r.name} ${r.title} ${r.areaNameParent} ${r.areaNameChild}`.toLowerCase().includes(needle)) return false;
      const health = store.stats.get(r.objectId)?.health;
      switch (filter) {
        case 'recording': return r.recording;
        case 'live': return r.streaming;
        case 'offline': return !r.streaming;
        case 'problem': return health === 'error' || health === 'stalled' || health === 'rate-limited';
        default: return true;
      }
    });
    const mbps = (r: RoomDto): number => num(store.stats.get(r.objectId)?.networkMbps) || 0;
    const by: Record<Sort, (a: RoomDto, b: RoomDto) => number> = {
      id: (a, b) => a.roomId - b.roomId,
      name: (a, b) => (a.name || '~').localeCompare(b.name || '~') || a.roomId - b.roomId,
      state: (a, b) => stateRank(a) - stateRank(b) || a.roomId - b.roomId,
      mbps: (a, b) => mbps(b) - mbps(a) || a.roomId - b.roomId,
    };
    return list.sort(by[sort]);
  })();

  const recording = rooms.filter((r) => r.recording).length;
  const live = rooms.filter((r) => r.streaming).length;
  return (
    <section>
      <div class="toolbar">
        <form class="add" onSubmit={add}>
          <input name="room" placeholder="room id, short id or live URL" value={input} onInput={(e) => setInput(e.currentTarget.value)} aria-label="room to add" />
          <label class="toggle"><input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} /> auto-record</label>
          <button type="submit" data-action="add">Add</button>
        </form>
        <div class="controls">
          <input type="search" placeholder="filter" value={text} onInput={(e) => setText(e.currentTarget.value)} aria-label="filter rooms" />
          <select value={filter} onChange={(e) => setFilter(e.currentTarget.value as Filter)} aria-label="show">
            <option value="all">all</option><option value="recording">recording</option><option value="live">live</option>
            <option value="offline">offline</option><option value="problem">problems</option>
          </select>
          <select value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)} aria-label="sort">
            <option value="id">by id</option><option value="name">by name</option><option value="state">by state</option><option value="mbps">by Mbps</option>
          </select>
        </div>
      </div>
      <p class="summary">{rooms.length} rooms · {live} live · {recording} recording{store.limiterPausedUntil > Date.now() ? ' · live API paused (rate-limited)' : ''}</p>
      <NoticeLine notice={notice} />
      <div class="grid" id="room-grid">
        {shown.slice(0, limit).map((r) => (
          <RoomCard key={r.objectId} room={r} stats={store.stats.get(r.objectId)} history={store.history.get(r.objectId)} onAction={onAction} />
        ))}
      </div>
      {shown.length > limit && <button class="more" onClick={() => setLimit(limit + PAGE)}>Show {Math.min(PAGE, shown.length - limit)} more of {shown.length - limit}</button>}
      {store.loaded && rooms.length === 0 && <p class="empty">No rooms yet: add one above.</p>}
    </section>
  );
}
