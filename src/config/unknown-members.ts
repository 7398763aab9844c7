// Warnings for config.json members liverec does not know (kept on save for brec compatibility), each with the nearest known name.
import { distance } from 'fastest-levenshtein';
import { FIELD_NAMES, GLOBAL_FIELDS, ROOM_FIELDS } from './fields.js';
import type { ConfigStore } from './store.js';

const TOP = ['version', 'global', 'rooms'];
const ROOM = ['RoomId', 'AutoRecord', ...ROOM_FIELDS];

/** The known name nearest `name` (case-insensitive edit distance), if near enough to be a likely misspelling. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** One line per unknown member: where it is, and what it may have meant. */
export function unknownMemberWarnings(config: ConfigStore): string[] {
  return config.unknownMembers().map(({ where, name }) => {
    const at = where === '' ? name : `${where}.${name}`;
    const known = where === '' ? TOP : where === 'global' ? GLOBAL_FIELDS : ROOM;
    // A real setting in the wrong place: a room-only one in global, or a global-only one in a room.
    if ((FIELD_NAMES as string[]).includes(name) || name === 'RoomId' || name === 'AutoRecord') {
      return `config.json: ${at} is ignored: ${name} is not a ${where === 'global' ? 'global' : 'room'} setting (kept in the file)`;
    }
    const near = nearestName(name, known);
    return `config.json: unknown member ${at} is ignored (kept in the file)${near ? `; did you mean ${near}?` : ''}`;
  });
}
