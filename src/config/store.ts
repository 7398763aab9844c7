// The live configuration: global and per-room overrides, room → global → default resolution, and atomic saves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LiverecError } from '../errors.js';
import { atomicWriteFile } from './atomic-write.js';
import { memberOrder, NO_ORDER, ordered, type MemberOrder } from './member-order.js';
import { FIELDS, FIELD_NAMES, ROOM_FIELDS, GLOBAL_FIELDS, typeDefault, type FieldName, type RoomSettings } from './fields.js';
import { ConfigError, parseConfigText, type ConfigFile } from './schema.js';

/** Present key = brec's `HasValue: true`. */
export type Overrides = Partial<Record<FieldName, unknown>>;

export interface RoomConfigEntry {
  roomId: number;
  autoRecord: boolean;
  overrides: Overrides;
  /** Unknown members of this room's object, written back untouched. */
  extra: Record<string, unknown>;
}

export interface ConfigStoreOptions {
  /** config.json path; absent = in-memory only (portable mode never writes a config). */
  path?: string;
}

type Optional = { HasValue: boolean; Value?: unknown } | undefined;

/** The `extra` of every room without unknown members (nothing writes to it): 5000 rooms hold one, not 5000. */
const NO_EXTRA: Record<string, unknown> = Object.freeze({});

function readOverrides(section: Record<string, unknown>, fields: readonly FieldName[]): { overrides: Overrides; extra: Record<string, unknown> } {
  const overrides: Overrides = {};
  const extra: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(section)) {
    if (!(fields as readonly string[]).includes(key)) {
      extra[key] = raw;
      continue;
    }
    const opt = raw as Optional;
    if (opt?.HasValue) overrides[key as FieldName] = opt.Value === undefined ? typeDefault(key as FieldName) : opt.Value;
  }
  return { overrides, extra };
}

function writeOverrides(overrides: Overrides, fields: readonly FieldName[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f in overrides)) continue;
    const value = overrides[f];
    // The value always written out ({"HasValue": true, "Value": false}): brec reads a missing Value as the type
    // default, but other readers of the file (and people) take `{"HasValue": true}` alone for a half-written member.
    // A null string has nothing to say (brec's NullValueHandling.Ignore).
    const v = value === undefined ? typeDefault(f) : value;
    out[f] = v === null ? { HasValue: true } : { HasValue: true, Value: v };
  }
  return out;
}

export class ConfigStore {
  global: Overrides = {};
  rooms: RoomConfigEntry[] = [];
  private globalExtra: Record<string, unknown> = {};
  private topExtra: Record<string, unknown> = {};
  private order: MemberOrder = NO_ORDER;
  /** What the file holds (as this store would write it), so that a save with nothing changed writes nothing. */
  private onDisk: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: ConfigStoreOptions = {}) {}

  /** Loads `<workDir>/config.json` or another file (--config-override); missing = defaults. Invalid files throw ConfigError, untouched. */
  static load(workDir: string, path = join(workDir, 'config.json')): ConfigStore {
    const store = new ConfigStore({ path });
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      store.apply(parseConfigText(text, path));
      store.order = memberOrder(text);
      store.onDisk = store.serialize();
    }
    return store;
  }

  /** An in-memory store from config text (the cluster keeps brec's JSON shape in its database). */
  static fromText(text: string, source: string): ConfigStore {
    const store = new ConfigStore();
    store.apply(parseConfigText(text, source));
    return store;
  }

  get path(): string | undefined {
    return this.options.path;
  }

  private apply(file: ConfigFile): void {
    const { version: _v, global, rooms, ...top } = file;
    this.topExtra = top;
    const g = readOverrides((global ?? {}) as Record<string, unknown>, GLOBAL_FIELDS);
    this.global = g.overrides;
    this.globalExtra = g.extra;
    this.rooms = [];
    (rooms ?? []).forEach((room, i) => {
      const r = readOverrides(room as Record<string, unknown>, ['RoomId', 'AutoRecord', ...ROOM_FIELDS]);
      const { RoomId, AutoRecord, ...overrides } = r.overrides;
      if (typeof RoomId !== 'number' || RoomId <= 0) throw new ConfigError(`${this.path}: invalid field rooms.${i}.RoomId: a positive room id is required`);
      if (this.rooms.some((x) => x.roomId === RoomId)) throw new ConfigError(`${this.path}: invalid field rooms.${i}.RoomId: room ${RoomId} is listed twice`);
      this.rooms.push({ roomId: RoomId, autoRecord: AutoRecord === true, overrides, extra: Object.keys(r.extra).length > 0 ? r.extra : NO_EXTRA });
    });
  }

  /** Members this version does not know, where they are ("global", "rooms.0" or "" for the top level); kept on save. */
  unknownMembers(): { where: string; name: string }[] {
    return [
      ...Object.keys(this.topExtra).map((name) => ({ where: '', name })),
      ...Object.keys(this.globalExtra).map((name) => ({ where: 'global', name })),
      ...this.rooms.flatMap((r, i) => Object.keys(r.extra).map((name) => ({ where: `rooms.${i}`, name }))),
    ];
  }

  /** The effective value of a field for a room (room → global → default) or for the global scope. */
  effective<F extends FieldName>(field: F, room?: RoomConfigEntry): RoomSettings[F] {
    if (room && field in room.overrides) return room.overrides[field] as RoomSettings[F];
    if (field in this.global) return this.global[field] as RoomSettings[F];
    return FIELDS[field].default as RoomSettings[F];
  }

  /** Every field resolved for one room. */
  resolveRoom(room: RoomConfigEntry): RoomSettings {
    const out: Record<string, unknown> = {};
    for (const f of FIELD_NAMES) out[f] = this.effective(f, room);
    out.RoomId = room.roomId;
    out.AutoRecord = room.autoRecord;
    return out as RoomSettings;
  }

  findRoom(roomId: number): RoomConfigEntry | undefined {
    return this.rooms.find((r) => r.roomId === roomId);
  }

  addRoom(roomId: number, autoRecord: boolean): RoomConfigEntry {
    const entry: RoomConfigEntry = { roomId, autoRecord, overrides: {}, extra: NO_EXTRA };
    this.rooms.push(entry);
    this.changed();
    return entry;
  }

  removeRoom(entry: RoomConfigEntry): void {
    this.rooms = this.rooms.filter((r) => r !== entry);
    this.changed();
  }

  /** Notifies listeners (the recorder re-sends settings to room workers). */
  changed(): void {
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The file's content, members in the order the loaded file had them (new ones after). */
  toJSON(): Record<string, unknown> {
    return ordered({
      ...this.topExtra,
      version: 3,
      global: ordered({ ...this.globalExtra, ...writeOverrides(this.global, GLOBAL_FIELDS) }, this.order.global),
      rooms: this.rooms.map((r) => ordered({
        ...r.extra,
        RoomId: { HasValue: true, Value: r.roomId },
        AutoRecord: { HasValue: true, Value: r.autoRecord },
        ...writeOverrides(r.overrides, ROOM_FIELDS),
      }, this.order.rooms.get(r.roomId) ?? [])),
    }, this.order.top);
  }

  private serialize(): string {
    return `${JSON.stringify(this.toJSON(), null, 2)}\n`;
  }

  /**
   * Writes config.json atomically, keeping the previous file as config.backup.json, when its content changed: a
   * save with nothing new (a shutdown, a repeated setting) leaves the user's file, formatting and all, untouched.
   * No-op in memory-only mode.
   */
  save(): void {
    const path = this.options.path;
    if (!path) return;
    const text = this.serialize();
    if (text === this.onDisk && existsSync(path)) return;
    try {
      atomicWriteFile(path, text, join(path, '..', 'config.backup.json'));
      this.onDisk = text;
    } catch (err) {
      const errno = (err as NodeJS.ErrnoException).code;
      const full = errno === 'ENOSPC' || errno === 'EDQUOT';
      throw new LiverecError(full ? 'CONFIG_DISK_FULL' : 'CONFIG_SAVE_FAILED', `cannot save ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Applies a change and saves it, or, when the save fails (a full disk), undoes the change and throws: what
   * is live in memory never differs from config.json. Room entries keep their identity (rooms hold them).
   */
  commit<T>(change: () => T): T {
    const global = structuredClone(this.global);
    const rooms = [...this.rooms];
    const entries = rooms.map((r) => ({ roomId: r.roomId, autoRecord: r.autoRecord, overrides: structuredClone(r.overrides) }));
    try {
      const result = change();
      this.save();
      return result;
    } catch (err) {
      this.global = global;
      this.rooms = rooms;
      rooms.forEach((r, i) => Object.assign(r, entries[i]));
      throw err;
    }
  }
}
