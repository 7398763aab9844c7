// The `{id}` of per-room routes: an int (room id or short id) or a GUID in any of .NET's D/N/B/P forms.
import { z } from '@hono/zod-openapi';

export type RoomRef = { kind: 'number'; id: number } | { kind: 'guid'; id: string };

const HEX = '[0-9a-fA-F]';
const D = `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`;
const GUID_FORMS = new RegExp(`^(?:(${D})|\\{(${D})\\}|\\((${D})\\)|(${HEX}{32}))$`);
const INT = /^[+-]?\d{1,10}$/;

/** Parses like .NET int.TryParse (invariant, surrounding whitespace allowed) then Guid.TryParse; null = neither. */
export function parseRoomRef(raw: string): RoomRef | null {
  const s = raw.trim();
  if (INT.test(s)) {
    const n = Number(s);
    return n >= -2147483648 && n <= 2147483647 ? { kind: 'number', id: n } : null;
  }
  const m = GUID_FORMS.exec(s);
  if (!m) return null;
  const d = m[1] ?? m[2] ?? m[3];
  const n = m[4];
  const guid = d ?? `${n!.slice(0, 8)}-${n!.slice(8, 12)}-${n!.slice(12, 16)}-${n!.slice(16, 20)}-${n!.slice(20)}`;
  return { kind: 'guid', id: guid.toLowerCase() };
}

/** Documented as a string; parsed in the handler so an unparsable id is a 404 like an unknown room, not a 400. */
export const RoomIdParams = z.object({
  id: z.string().openapi({
    param: { name: 'id', in: 'path', required: true },
    description: 'Room id or short id (integer), or the objectId (GUID in D, N, B or P form)',
    example: '21452505',
  }),
});
