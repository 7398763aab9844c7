// The member order of the user's config.json, so that a save changes what changed and leaves the rest where it stood.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys in file order: the top level, `global`, and each room by its RoomId. */
export interface MemberOrder {
  top: string[];
  global: string[];
  rooms: Map<number, string[]>;
}

export const NO_ORDER: MemberOrder = { top: [], global: [], rooms: new Map() };

/** Reads the order from config text that already parsed (a failure gives no order: brec's order is used). */
export function memberOrder(text: string): MemberOrder {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return NO_ORDER;
  }
  if (!isObj(json)) return NO_ORDER;
  const rooms = new Map<number, string[]>();
  for (const room of Array.isArray(json.rooms) ? json.rooms : []) {
    const id = isObj(room) && isObj(room.RoomId) ? room.RoomId.Value : undefined;
    if (typeof id === 'number' && isObj(room)) rooms.set(id, Object.keys(room));
  }
  return { top: Object.keys(json), global: isObj(json.global) ? Object.keys(json.global) : [], rooms };
}

/** `obj`'s members in `order` first (those still present), then the new ones in their own order. */
export function ordered<T extends Obj>(obj: T, order: readonly string[]): T {
  if (order.length === 0) return obj;
  const out: Obj = {};
  for (const k of order) if (k in obj) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!(k in out)) out[k] = v;
  return out as T;
}
