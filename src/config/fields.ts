// The configuration fields of brec's config v3 (plus liverec's own), with types, defaults and scope.
import { DEFAULT_RECORD_AVOID_HOSTS } from '../bilibili/avoid-hosts.js';

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
  /** Allowed values of a string setting that is a choice (null still means the default where nullable). */
  choices?: readonly string[];
  /** Nullable strings, as brec's `string?` fields. */
  nullable?: boolean;
  /** Fields liverec adds; brec ignores unknown members, so the file stays loadable by brec. */
  liverec?: boolean;
}

export const DEFAULT_FILE_NAME_TEMPLATE =
  '{{ roomId }}-{{ name }}/录制-{{ roomId }}-{{ "now" | time_zone: "Asia/Shanghai" | format_date: "yyyyMMdd-HHmmss-fff" }}-{{ title }}.flv';

/** PostRemuxToMp4's choices: a typo is refused rather than read as "none". */
export const REMUX_MODES = ['none', 'mp4', 'mp4-delete-source'] as const;

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
  // Accounts (src/accounts/, docs/accounts.md).
  /** `auto` (spread over the logged-in accounts), an account's uid, or `guest`. */
  RecordingAccount: { kind: 'string', scope: 'RG', default: 'auto', nullable: true, liverec: true },
  /** Seconds between two checks of each login (cookie/info, refreshed when the service asks); the web client checks daily. */
  AccountCheckInterval: { kind: 'uint', scope: 'G', default: 86_400, liverec: true },
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
  ApiBudgetPerMinute: { kind: 'uint', scope: 'G', default: 57, liverec: true },
  /** Ask for the streamer's origin first (qn 25000) and switch back to it when a re-encode is recorded (docs/origin.md). */
  RecordingPreferOrigin: { kind: 'bool', scope: 'RG', default: true, liverec: true },
  /** Stream hosts passed over while another is offered: regular expressions, one per line (default: PCDN hosts; docs/recording.md). */
  RecordAvoidHosts: { kind: 'string', scope: 'RG', default: DEFAULT_RECORD_AVOID_HOSTS, nullable: true, liverec: true },
  /** Seconds between looks for the origin while a re-encode or transcode is recorded (one play-info call each). */
  TimingOriginCheckInterval: { kind: 'uint', scope: 'G', default: 60, liverec: true },
  /** When an FLV connection drops while the room is live, the missed frames are fetched from the HLS window (docs/gaps.md). */
  RecordFillGapsFromHls: { kind: 'bool', scope: 'RG', default: true, liverec: true },
  /** How far back (seconds) a fill or a late start reaches into segments that already left the HLS playlist. */
  RecordGapFillMaxSeconds: { kind: 'uint', scope: 'RG', default: 120, liverec: true },
  // Post-file jobs (src/post/, docs/post-processing.md).
  /** none | mp4 | mp4-delete-source: remux each closed file to a faststart MP4 in-process. */
  PostRemuxToMp4: { kind: 'string', scope: 'RG', default: 'none', nullable: true, liverec: true, choices: REMUX_MODES },
  /** Render the file's danmaku XML as ASS subtitles beside the video. */
  PostDanmakuToAss: { kind: 'bool', scope: 'RG', default: false, liverec: true },
  /** A program run after each file's other jobs: the program on the first line, one argument per line (no shell). */
  PostCommand: { kind: 'string', scope: 'G', default: '', nullable: true, liverec: true },
  /** Seconds PostCommand may run before it is killed. */
  PostCommandTimeout: { kind: 'uint', scope: 'G', default: 600, liverec: true },
  /** Post-file jobs run at once (each remux takes one thread). */
  PostJobConcurrency: { kind: 'uint', scope: 'G', default: 1, liverec: true },
  // Live preview (src/preview/, docs/clips.md).
  /** Readers of one room's live preview (GET /api/room/{id}/live.flv) at once; 0 turns the preview off. */
  PreviewMaxViewers: { kind: 'uint', scope: 'G', default: 3, liverec: true },
  // Notifications (src/notify/).
  /** Where notifications go, one URL per line: ntfy://, tgram://BOT/CHAT, bark://, mailto://user:pass@host:port/to, json://. */
  NotifyUrls: { kind: 'string', scope: 'G', default: '', nullable: true, liverec: true },
  /** A room's notifications on or off (a room with AutoRecord off and this on is notify-only). */
  NotifyEnabled: { kind: 'bool', scope: 'RG', default: true, liverec: true },
  /** Liquid template of a notification's text: message, kind, title, roomId, name, roomTitle, time. */
  NotifyTemplate: { kind: 'string', scope: 'G', default: '{{ message }}', nullable: true, liverec: true },
  // Object storage (src/storage/).
  /** Upload each finished file to S3: s3://KEY:SECRET@host:port/bucket/prefix?region=…&pathStyle=true&tls=false; empty = off. */
  StorageS3Url: { kind: 'string', scope: 'G', default: '', nullable: true, liverec: true },
  /** Delete the local copies once the upload is verified. */
  StorageDeleteLocal: { kind: 'bool', scope: 'G', default: false, liverec: true },
  // Retention (src/retention/): all off by default; the oldest closed recordings go first.
  /** Days a closed recording is kept; 0 = no limit. */
  RetentionMaxAgeDays: { kind: 'uint', scope: 'G', default: 0, liverec: true },
  /** GiB all recordings in the work directory may take (a decimal such as "0.5"); "0" = no limit. */
  RetentionMaxTotalGB: { kind: 'string', scope: 'G', default: '0', nullable: true, liverec: true },
  /** GiB that must stay free on the work directory's disk (a decimal); "0" = no limit. */
  RetentionMinFreeGB: { kind: 'string', scope: 'G', default: '0', nullable: true, liverec: true },
} as const satisfies Record<string, FieldDef>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

type KindValue<K extends FieldKind> = K extends 'bool' ? boolean : K extends 'string' ? string | null : number;
export type FieldValue<F extends FieldName> = KindValue<(typeof FIELDS)[F]['kind']>;

/** Every choice setting (a numeric enum or a string choice) with its values, by field: the UI's selects and the OpenAPI enums. */
export const CHOICES: Partial<Record<FieldName, readonly (number | string)[]>> = Object.fromEntries(
  FIELD_NAMES.flatMap((f) => {
    const def: FieldDef = FIELDS[f];
    const values = def.values ?? def.choices;
    return values ? [[f, values]] : [];
  }),
);

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
      if (value === null && def.nullable) return null;
      if (typeof value !== 'string') return 'expected a string';
      return !def.choices || def.choices.includes(value) ? null : `expected one of ${def.choices.join(', ')}`;
    case 'int':
      return Number.isSafeInteger(value) ? null : 'expected an integer';
    case 'uint':
      return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 0xffffffff ? null : 'expected a non-negative integer';
    case 'enum':
      return Number.isInteger(value) && def.values!.includes(value as number) ? null : `expected one of ${def.values!.join(', ')}`;
  }
}
