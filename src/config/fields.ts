// The configuration fields of brec's config v3 (plus liverec's own), with types, defaults and scope.

export type FieldKind = 'bool' | 'int' | 'uint' | 'string' | 'enum';
/** R = room only, RG = room override of a global value, G = global only. */
export type FieldScope = 'R' | 'RG' | 'G';

export interface FieldDef {
  kind: FieldKind;
  scope: FieldScope;
  /** The effective default (brec's DefaultConfig). */
  default: boolean | number | string | null;
  /** Allowed values of an enum. */
  values?: readonly number[];
  /** Nullable strings, as brec's `string?` fields. */
  nullable?: boolean;
  /** Fields liverec adds; brec ignores unknown members, so the file stays loadable by brec. */
  liverec?: boolean;
}

export const DEFAULT_FILE_NAME_TEMPLATE =
  '{{ roomId }}-{{ name }}/录制-{{ roomId }}-{{ "now" | time_zone: "Asia/Shanghai" | format_date: "yyyyMMdd-HHmmss-fff" }}-{{ title }}.flv';

export const FIELDS = {
  RoomId: { kind: 'int', scope: 'R', default: 0 },
  AutoRecord: { kind: 'bool', scope: 'R', default: false },
  RecordMode: { kind: 'enum', scope: 'RG', default: 0, values: [0, 1] },
  CuttingMode: { kind: 'enum', scope: 'RG', default: 0, values: [0, 1, 2] },
  CuttingNumber: { kind: 'uint', scope: 'RG', default: 100 },
  CuttingByTitle: { kind: 'bool', scope: 'RG', default: false },
  RecordDanmaku: { kind: 'bool', scope: 'RG', default: false },
  RecordDanmakuRaw: { kind: 'bool', scope: 'RG', default: false },
  RecordDanmakuSuperChat: { kind: 'bool', scope: 'RG', default: true },
  RecordDanmakuGift: { kind: 'bool', scope: 'RG', default: false },
  RecordDanmakuGuard: { kind: 'bool', scope: 'RG', default: true },
  SaveStreamCover: { kind: 'bool', scope: 'RG', default: false },
  RecordingQuality: { kind: 'string', scope: 'RG', default: 'avc10000,hevc10000', nullable: true },
  FlvProcessorSplitOnScriptTag: { kind: 'bool', scope: 'RG', default: false },
  FlvProcessorDisableSplitOnH264AnnexB: { kind: 'bool', scope: 'RG', default: false },
  FlvKeepHevcCodec12: { kind: 'bool', scope: 'RG', default: false, liverec: true },
  TitleFilterPatterns: { kind: 'string', scope: 'RG', default: '', nullable: true },
  FileNameRecordTemplate: { kind: 'string', scope: 'G', default: DEFAULT_FILE_NAME_TEMPLATE, nullable: true },
  FlvWriteMetadata: { kind: 'bool', scope: 'G', default: true },
  WebHookUrls: { kind: 'string', scope: 'G', default: '', nullable: true },
  WebHookUrlsV2: { kind: 'string', scope: 'G', default: '', nullable: true },
  WpfShowTitleAndArea: { kind: 'bool', scope: 'G', default: true },
  WpfNotifyStreamStart: { kind: 'bool', scope: 'G', default: false },
  Cookie: { kind: 'string', scope: 'G', default: '', nullable: true },
  LiveApiHost: { kind: 'string', scope: 'G', default: 'https://api.live.bilibili.com', nullable: true },
  TimingCheckInterval: { kind: 'uint', scope: 'G', default: 600 },
  TimingApiTimeout: { kind: 'uint', scope: 'G', default: 10_000 },
  TimingStreamRetry: { kind: 'uint', scope: 'G', default: 6_000 },
  TimingStreamRetryNoQn: { kind: 'uint', scope: 'G', default: 90 },
  TimingStreamConnect: { kind: 'uint', scope: 'G', default: 5_000 },
  TimingDanmakuRetry: { kind: 'uint', scope: 'G', default: 9_000 },
  TimingWatchdogTimeout: { kind: 'uint', scope: 'G', default: 10_000 },
  RecordDanmakuFlushInterval: { kind: 'uint', scope: 'G', default: 20 },
  DanmakuTransport: { kind: 'enum', scope: 'G', default: 3, values: [0, 1, 2, 3] },
  DanmakuAuthenticateWithStreamerUid: { kind: 'bool', scope: 'G', default: false },
  NetworkTransportUseSystemProxy: { kind: 'bool', scope: 'G', default: false },
  NetworkTransportAllowedAddressFamily: { kind: 'enum', scope: 'G', default: 0, values: [-1, 0, 1, 2] },
  UserScript: { kind: 'string', scope: 'G', default: '', nullable: true },
  // liverec additions.
  /** Ordered stream formats to record: flv, hls-fmp4, hls-ts (see src/bilibili/recording-protocol.ts). */
  RecordingProtocol: { kind: 'string', scope: 'RG', default: 'flv,hls-fmp4,hls-ts', nullable: true, liverec: true },
  TimingApiBlockedPause: { kind: 'uint', scope: 'G', default: 120_000, liverec: true },
  TimingWebhookTimeout: { kind: 'uint', scope: 'G', default: 10_000, liverec: true },
  /** MiB one room's capture may hold in memory (Buffers included); over it the file is closed and the stream reconnected. */
  RecordMemoryBudgetMB: { kind: 'uint', scope: 'RG', default: 64, liverec: true },
  /** No new recording file is opened while the work directory's file system has less than this free (MiB). */
  MinFreeSpaceMB: { kind: 'uint', scope: 'G', default: 256, liverec: true },
  /** Rooms the API may hold; adds beyond are refused (409). 0 = no limit. */
  MaxRooms: { kind: 'uint', scope: 'G', default: 1000, liverec: true },
  /** Keep the danmaku socket open while the room is idle, for second-level start detection (off: it opens when the room goes live). */
  DanmakuInstantDetect: { kind: 'bool', scope: 'RG', default: false, liverec: true },
  /** Live-API calls per minute the whole process may make (every call of every room, batch checks included). */
  ApiBudgetPerMinute: { kind: 'uint', scope: 'G', default: 50, liverec: true },
} as const satisfies Record<string, FieldDef>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

type KindValue<K extends FieldKind> = K extends 'bool' ? boolean : K extends 'string' ? string | null : number;
export type FieldValue<F extends FieldName> = KindValue<(typeof FIELDS)[F]['kind']>;

/** Fields a room may override (room-only and room-overridable), in brec's order. */
export const ROOM_FIELDS = FIELD_NAMES.filter((f) => FIELDS[f].scope === 'RG');
/** Fields of the global section (everything but the room-only ones). */
export const GLOBAL_FIELDS = FIELD_NAMES.filter((f) => FIELDS[f].scope !== 'R');

/** The type default that brec reports in `{hasValue:false, value}` (not the effective default). */
export function typeDefault(field: FieldName): boolean | number | null {
  const def: FieldDef = FIELDS[field];
  return def.kind === 'bool' ? false : def.kind === 'string' ? null : 0;
}

/** camelCase name used by the REST API (`RecordMode` → `recordMode`). */
export const camelName = (field: string): string => field[0]!.toLowerCase() + field.slice(1);

/** The fully resolved settings of one room, as the recorder uses them. */
export type RoomSettings = { [F in FieldName]: FieldValue<F> };

/** Checks a value against a field's type; returns an error message or null. */
export function checkFieldValue(field: FieldName, value: unknown): string | null {
  const def: FieldDef = FIELDS[field];
  switch (def.kind) {
    case 'bool':
      return typeof value === 'boolean' ? null : 'expected a boolean';
    case 'string':
      return typeof value === 'string' || (value === null && def.nullable) ? null : 'expected a string';
    case 'int':
      return Number.isSafeInteger(value) ? null : 'expected an integer';
    case 'uint':
      return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 0xffffffff ? null : 'expected a non-negative integer';
    case 'enum':
      return Number.isInteger(value) && def.values!.includes(value as number) ? null : `expected one of ${def.values!.join(', ')}`;
  }
}
