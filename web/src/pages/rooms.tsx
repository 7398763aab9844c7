// Rooms: a card per room, add by id / short id / live URL, filter and sort, and the room commands.
import { useCallback, useState } from 'preact/hooks';
import { parseRoomInput } from '../api';
import { NoticeLine, useNotice } from '../components/notice';
import { addRoom, removeRoom, roomAction, setAutoRecord } from '../components/room-actions';
import { RoomCard } from '../components/room-card';
import { t } from '../i18n';
import { useStore } from '../store';
import { num, type RoomDto } from '../types';

const PAGE = 200;
const SORTS = ['id', 'name', 'state', 'mbps'] as const;
const FILTERS = ['all', 'recording', 'live', 'offline', 'problem'] as const;
type Sort = (typeof SORTS)[number];
type Filter = (typeof FILTERS)[number];

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
        if (!confirm(t('rooms.confirmRemove', { id: room.roomId }))) return;
        await removeRoom(room);
      } else if (action === 'auto-on' || action === 'auto-off') await setAutoRecord(room, action === 'auto-on');
      else await roomAction(room, action as 'start');
      say(t('rooms.actionDone', { action: t(`action.${action}`), id: room.roomId }));
    } catch (err) {
      say(t('rooms.actionFailed', { action: t(`action.${action}`), error: (err as Error).message }), true);
    }
  }, []);

  const add = async (e: Event) => {
    e.preventDefault();
    const id = parseRoomInput(input);
    if (id === null) return say(t('rooms.badInput'), true);
    try {
      const room = await addRoom(id, auto);
      setInput('');
      say(t('rooms.added', { id: room.roomId }));
    } catch (err) {
      say(t('rooms.addFailed', { error: (err as Error).message }), true);
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
          <input name="room" placeholder={t('rooms.addPlaceholder')} value={input} onInput={(e) => setInput(e.currentTarget.value)} aria-label={t('rooms.addLabel')} />
          <label class="toggle"><input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} /> {t('rooms.autoRecord')}</label>
          <button type="submit" data-action="add">{t('rooms.add')}</button>
        </form>
        <div class="controls">
          <input type="search" placeholder={t('rooms.filterPlaceholder')} value={text} onInput={(e) => setText(e.currentTarget.value)} aria-label={t('rooms.filterLabel')} />
          <select value={filter} onChange={(e) => setFilter(e.currentTarget.value as Filter)} aria-label={t('rooms.showLabel')}>
            {FILTERS.map((f) => <option value={f}>{t(`rooms.show.${f}`)}</option>)}
          </select>
          <select value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)} aria-label={t('rooms.sortLabel')}>
            {SORTS.map((o) => <option value={o}>{t(`rooms.sort.${o}`)}</option>)}
          </select>
        </div>
      </div>
      <p class="summary">{t('rooms.summary', { n: rooms.length, live, recording })}{store.limiterPausedUntil > Date.now() ? ` · ${t('rooms.limiter')}` : ''}{store.api ? ` · ${apiSummary(store.api)}` : ''}</p>
      <NoticeLine notice={notice} />
      <div class="grid" id="room-grid">
        {shown.slice(0, limit).map((r) => (
          <RoomCard key={r.objectId} room={r} stats={store.stats.get(r.objectId)} history={store.history.get(r.objectId)} historyVersion={store.historyVersion} onAction={onAction} />
        ))}
      </div>
      {shown.length > limit && <button class="more" onClick={() => setLimit(limit + PAGE)}>{t('rooms.more', { n: Math.min(PAGE, shown.length - limit), rest: shown.length - limit })}</button>}
      {store.loaded && rooms.length === 0 && <p class="empty">{t('rooms.empty')}</p>}
    </section>
  );
}

/** The live-API budget on the summary line: calls in the last minute of the learned rate (and its ceiling when below it), the queue, pauses. */
function apiSummary(api: { budgetPerMinute: number; ratePerMinute?: number; queued?: Record<string, number>; callsLastMinute: number; pauses: number }): string {
  const rate = api.ratePerMinute ?? api.budgetPerMinute;
  const queued = Object.values(api.queued ?? {}).reduce((a: number, b: number) => a + b, 0);
  const base = t('rooms.apiBudget', { used: api.callsLastMinute, budget: rate, pauses: api.pauses });
  const learned = rate < api.budgetPerMinute ? ` · ${t('rooms.apiRateLearned', { ceiling: api.budgetPerMinute })}` : '';
  return base + learned + (queued > 0 ? ` · ${t('rooms.apiQueued', { n: queued })}` : '');
}
