// GraphQL resolvers over the same room mirror and commands as the REST API; brec's semantics and error codes.
import { GraphQLError } from 'graphql';
import { checkFieldValue, FIELDS, GLOBAL_FIELDS, ROOM_FIELDS, camelName, type FieldName } from '../../config/fields.js';
import type { Overrides } from '../../config/store.js';
import type { IoStats, RecordingStats } from '../../rooms/protocol.js';
import type { Room } from '../../rooms/room.js';
import { VERSION } from '../../version.js';
import { applyOptionals, defaultConfigDto, optionalsDto } from '../config-dto.js';
import type { ApiDeps } from '../context.js';
import { ioStatsDto, recordingStatsDto, roomDto } from '../room-dto.js';
import { parseRoomRef } from '../room-id.js';
import { refreshRoom, runRoomAction } from '../room.js';
import { recorderVersion } from '../version.js';
import { fromGraphqlValue, toGraphqlValue } from './config-types.js';

type Args = Record<string, unknown>;

const brecError = (message: string, code?: string): GraphQLError => new GraphQLError(message, code ? { extensions: { code } } : {});
const notFound = (): GraphQLError => brecError('Room not found', 'BREC_ROOM_NOT_FOUND');

/** Durations are whole milliseconds in brec's GraphQL (TimeSpanMilliseconds), doubles in its REST API. */
const ms = (n: number): number => (Number.isFinite(n) ? Math.trunc(n) : 0);

function ioStatsNode(s: IoStats) {
  return { ...ioStatsDto(s), duration: ms(s.duration), networkMbps: s.networkMbps, diskWriteDuration: ms(s.diskWriteDuration), diskMBps: s.diskMBps };
}

function recordingStatsNode(s: RecordingStats) {
  return {
    ...recordingStatsDto(s), sessionDuration: ms(s.sessionDuration), addedDuration: s.addedDuration, passedTime: s.passedTime,
    durationRatio: s.durationRatio,
  };
}

function optionalNodes(overrides: Overrides, fields: readonly FieldName[]) {
  const dto = optionalsDto(overrides, fields);
  return Object.fromEntries(fields.map((f) => {
    const o = dto[`optional${f}`]!;
    return [`optional${f}`, { hasValue: o.hasValue, value: toGraphqlValue(f, o.value) }];
  }));
}

/** Stats and config are resolved only when a query selects them (the WebUI's 5-s poll asks for four numbers). */
function roomNode(room: Room) {
  const { recordingStats: _r, ioStats: _i, roomId: _id, autoRecord: _a, ...dto } = roomDto(room);
  return {
    ...dto,
    roomConfig: () => ({ roomId: room.roomId, autoRecord: room.autoRecord, ...optionalNodes(room.entry.overrides, ROOM_FIELDS) }),
    ioStats: () => ioStatsNode(room.ioStats),
    recordingStats: () => recordingStatsNode(room.recordingStats),
  };
}

const guidOf = (v: unknown): string | null => {
  const ref = typeof v === 'string' ? parseRoomRef(v) : null;
  return ref?.kind === 'guid' ? ref.id : null;
};

/**
 * brec: objectId when given, else room id or short id. A missing or zero roomId matches nothing here; brec would match
 * the first room whose short id is 0, so a mutation without arguments could hit an arbitrary room.
 */
function findRoom(deps: ApiDeps, args: Args): Room | undefined {
  if (args.objectId !== undefined && args.objectId !== null) {
    const guid = guidOf(args.objectId);
    return guid ? deps.recorder.findRoom(guid) : undefined;
  }
  const roomId = typeof args.roomId === 'number' ? args.roomId : 0;
  return roomId > 0 ? deps.recorder.findRoom(roomId) : undefined;
}

function requireRoom(deps: ApiDeps, args: Args): Room {
  const room = findRoom(deps, args);
  if (!room) throw notFound();
  return room;
}

/** Validates every given key first, so a bad value changes nothing; then applies like the REST POST. */
function applyConfigInput(overrides: Overrides, input: Args, fields: readonly FieldName[]): void {
  const body: Record<string, { hasValue: boolean; value?: unknown }> = {};
  for (const f of fields) {
    const opt = input[`optional${f}`] as { hasValue: boolean; value?: unknown } | null | undefined;
    if (opt === undefined || opt === null) continue;
    const value = opt.value === undefined || (opt.value === null && FIELDS[f].kind !== 'string') ? undefined : fromGraphqlValue(f, opt.value);
    if (opt.hasValue && value !== undefined) {
      const problem = checkFieldValue(f, value);
      if (problem) throw brecError(`config.optional${f}.value: ${problem}`, 'BREC_INVALID_CONFIG');
    }
    body[`optional${f}`] = { hasValue: opt.hasValue, value };
  }
  applyOptionals(overrides, body, fields);
}

/** The root value: graphql-js's default resolver calls these with (args, context, info). */
export function createRootValue(deps: ApiDeps) {
  const { recorder } = deps;
  const { config } = recorder;
  const version = recorderVersion(VERSION);
  const defaults = Object.fromEntries(Object.entries(defaultConfigDto())
    .map(([k, v]) => [k, toGraphqlValue(GLOBAL_FIELDS.find((f) => camelName(f) === k)!, v)]));
  const globalNode = () => optionalNodes(config.global, GLOBAL_FIELDS);

  return {
    // Queries.
    version: () => version,
    config: globalNode,
    defaultConfig: () => defaults,
    rooms: (args: Args) => {
      const objectIds = args.objectIds as unknown[] | null | undefined;
      const roomIds = args.roomIds as (number | null)[] | null | undefined;
      if (objectIds == null && roomIds == null) return recorder.rooms.map(roomNode);
      const guids = new Set((objectIds ?? []).map(guidOf).filter((g): g is string => g !== null));
      const ids = new Set((roomIds ?? []).filter((n): n is number => typeof n === 'number' && n !== 0));
      return recorder.rooms.filter((r) => guids.has(r.objectId) || ids.has(r.roomId) || ids.has(r.state.shortId)).map(roomNode);
    },
    room: (args: Args) => {
      const room = findRoom(deps, args);
      return room ? roomNode(room) : null;
    },

    // Mutations. Each answers the room as it is after the command was issued (start/stop/split run asynchronously).
    addRoom: async (args: Args) => {
      const roomId = typeof args.roomId === 'number' ? args.roomId : 0;
      if (roomId <= 0) throw brecError('Roomid out of range', 'BREC_ROOMID_OUT_OF_RANGE');
      if (recorder.findRoom(roomId)) throw brecError('Room already exist.', 'BREC_ROOM_DUPLICATE');
      const cluster = deps.cluster?.rooms;
      if (cluster) {
        // The shared row only: placement picks the node that records it (recording it here too would make two).
        const placeholder = await cluster.add(roomId, args.autoRecord === true);
        if (!placeholder) throw brecError('Room already exist.', 'BREC_ROOM_DUPLICATE');
        return roomNode(placeholder);
      }
      return roomNode(await recorder.addRoom(roomId, args.autoRecord === true));
    },
    removeRoom: async (args: Args) => {
      const room = findRoom(deps, args);
      const cluster = deps.cluster?.rooms;
      // Cluster: the shared row (and with it the lease) goes first, as REST's DELETE does; a room nobody records has only that.
      const id = room?.roomId ?? (typeof args.roomId === 'number' ? args.roomId : 0);
      const placeholder = cluster && id > 0 ? await cluster.remove(id) : null;
      if (!room) {
        if (placeholder) return roomNode(placeholder);
        throw notFound();
      }
      const node = roomNode(room);
      await recorder.removeRoom(room);
      return node;
    },
    refreshRoomInfo: async (args: Args) => {
      const room = requireRoom(deps, args);
      await refreshRoom(deps, room);
      return roomNode(room);
    },
    startRecording: (args: Args) => action(args, 'start'),
    stopRecording: (args: Args) => action(args, 'stop'),
    splitRecordingOutput: (args: Args) => action(args, 'split'),
    // brec's GraphQL applies config without saving; the next save (any REST change, shutdown) writes it.
    setRoomConfig: (args: Args) => {
      const input = args.config as Args | null | undefined;
      if (!input) throw brecError("config can't be null");
      const room = requireRoom(deps, args);
      applyConfigInput(room.entry.overrides, input, ROOM_FIELDS);
      if (typeof input.autoRecord === 'boolean') room.entry.autoRecord = input.autoRecord;
      config.changed();
      recorder.pushSettings(room);
      return roomNode(room);
    },
    setConfig: (args: Args) => {
      const input = args.config as Args | null | undefined;
      if (!input) throw brecError("config can't be null");
      applyConfigInput(config.global, input, GLOBAL_FIELDS);
      config.changed();
      recorder.pushSettings();
      return globalNode();
    },
  };

  function action(args: Args, what: 'start' | 'stop' | 'split') {
    const room = requireRoom(deps, args);
    runRoomAction(room, what);
    return roomNode(room);
  }
}
