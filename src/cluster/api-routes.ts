// Cluster mode's API: every node lists every room with its owner, and commands for a room reach the node that records it.
import type { Context, Next } from 'hono';
import type { ApiApp, ApiDeps, ClusterRoomOps } from '../api/context.js';
import { ApiErrorCode, roomIdOutOfRange } from '../api/errors.js';
import { jsonResponse, sendJson } from '../api/json.js';
import { roomDto } from '../api/room-dto.js';
import { parseRoomRef } from '../api/room-id.js';
import { ConfigStore } from '../config/store.js';
import { Room } from '../rooms/room.js';
import type { ClusterNode } from './node.js';
import { readNodes } from './leases.js';
import { singletonHolder } from './singleton.js';
import { addSharedRoom, removeSharedRoom } from './shared-config.js';
import { readSharedRooms, type SharedRoomRow } from './status.js';
import { forwardTo, FORWARDED_HEADER } from './forward.js';
import { graphqlMutationTarget } from './graphql-relay.js';

const idle = { command: () => Promise.resolve() };

/** A room no node has picked up yet, from its settings alone. */
function placeholderRoom(config: unknown, roomId: number): Room {
  const entry = ConfigStore.fromText(JSON.stringify({ version: 3, rooms: [config] }), `cluster room ${roomId}`).rooms[0]!;
  return new Room(entry, idle);
}

/** The same, in the room resource's shape. */
function placeholderDto(row: SharedRoomRow): Record<string, unknown> {
  return roomDto(placeholderRoom(row.config, row.roomId)) as unknown as Record<string, unknown>;
}

export class ClusterApi {
  /** GraphQL's addRoom/removeRoom act on the shared rows, as REST's POST and DELETE do. */
  readonly rooms: ClusterRoomOps;

  constructor(private readonly node: ClusterNode) {
    this.rooms = {
      add: async (roomId, autoRecord) => {
        if (!(await addSharedRoom(node.db, roomId, autoRecord))) return null;
        const row = (await readSharedRooms(node.db)).find((r) => r.roomId === roomId);
        return row ? placeholderRoom(row.config, roomId) : null;
      },
      remove: async (roomId) => {
        const row = (await readSharedRooms(node.db)).find((r) => r.roomId === roomId);
        if (!row) return null;
        await removeSharedRoom(node.db, roomId);
        return placeholderRoom(row.config, roomId);
      },
    };
  }

  register(app: ApiApp, deps: ApiDeps): void {
    const { recorder } = deps;
    const node = this.node;
    const view = (row: SharedRoomRow): Record<string, unknown> => {
      const local = node.owns(row.roomId) ? recorder.rooms.find((r) => r.roomId === row.roomId) : undefined;
      const dto = local ? roomDto(local) : (row.owner && row.dto) || placeholderDto(row);
      return { ...dto, ownerNode: local ? node.identity.nodeId : row.owner };
    };
    const find = (rows: SharedRoomRow[], raw: string): SharedRoomRow | undefined => {
      const ref = parseRoomRef(raw);
      if (!ref) return undefined;
      if (ref.kind === 'guid') return rows.find((r) => (view(r).objectId as string | undefined) === ref.id);
      return rows.find((r) => r.roomId === ref.id) ?? rows.find((r) => (r.dto as { shortId?: number } | null)?.shortId === ref.id);
    };

    app.get('/api/cluster/nodes', async (c) => {
      const [nodes, rooms, detector] = await Promise.all([readNodes(node.db, node.timings.ttlMs), readSharedRooms(node.db), singletonHolder(node.db, 'detector')]);
      return sendJson(c, nodes.map((n) => ({ ...n, detector: n.nodeId === detector, rooms: rooms.filter((r) => r.owner === n.nodeId).map((r) => r.roomId) })), 200);
    });

    app.use('/api/room', async (c: Context, next: Next) => {
      if (c.req.method === 'GET') return sendJson(c, (await readSharedRooms(node.db)).map(view), 200);
      if (c.req.method !== 'POST') return next();
      const body = await c.req.json().catch(() => null) as { roomId?: unknown; autoRecord?: unknown; RoomId?: unknown; AutoRecord?: unknown } | null;
      const roomId = body?.roomId ?? body?.RoomId ?? 0;
      const autoRecord = body?.autoRecord ?? body?.AutoRecord ?? false;
      if (typeof roomId !== 'number' || !Number.isInteger(roomId) || typeof autoRecord !== 'boolean') {
        return jsonResponse({ code: ApiErrorCode.InvalidRequest, message: 'body: roomId (integer) and autoRecord (boolean) expected' }, 400);
      }
      if (roomId <= 0 || roomId > 2 ** 31 - 1) return roomIdOutOfRange(c);
      const rows = await readSharedRooms(node.db);
      const existing = find(rows, String(roomId));
      if (!existing) await addSharedRoom(node.db, roomId, autoRecord);
      const row = existing ?? (await readSharedRooms(node.db)).find((r) => r.roomId === roomId)!;
      return sendJson(c, view(row), 200);
    });

    app.use('/graphql', async (c: Context, next: Next) => {
      if (c.req.method !== 'POST' || c.req.header(FORWARDED_HEADER)) return next();
      const target = await graphqlMutationTarget(c);
      if (target === null) return next();
      const local = recorder.findRoom(parseRoomRef(target)?.id ?? -1);
      if (local && node.owns(local.roomId)) return next();
      const row = find(await readSharedRooms(node.db), target);
      if (row?.owner && row.owner !== node.identity.nodeId && row.ownerAdvertise) return forwardTo(c, row.ownerAdvertise, node.identity.nodeId);
      return next();
    });

    app.use('/api/room/*', async (c: Context, next: Next) => {
      const [, , , id, action = ''] = c.req.path.split('/');
      if (id === undefined) return next();
      const local = recorder.findRoom(parseRoomRef(id)?.id ?? -1);
      const rows = await readSharedRooms(node.db);
      const row = local ? rows.find((r) => r.roomId === local.roomId) : find(rows, id);
      if (!row) return next();
      if (c.req.method === 'DELETE' && action === '') {
        const dto = view(row);
        await removeSharedRoom(node.db, row.roomId);
        return local ? next() : sendJson(c, dto, 200);
      }
      if (local && node.owns(local.roomId)) return next();
      if (c.req.method === 'GET' && (action === '' || action === 'stats' || action === 'iostats')) {
        const dto = view(row);
        return sendJson(c, action === 'stats' ? dto.recordingStats : action === 'iostats' ? dto.ioStats : dto, 200);
      }
      if (row.owner && row.ownerAdvertise && !c.req.header(FORWARDED_HEADER)) return forwardTo(c, row.ownerAdvertise, node.identity.nodeId);
      return jsonResponse({ code: ApiErrorCode.Unknown, message: `room ${row.roomId} is not recorded by any reachable node right now; try again shortly` }, 503);
    });
  }
}
