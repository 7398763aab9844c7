// How the settings editor presents each config field: brec WebUI's groups and order, units, input kinds, and inert fields.
import { CHOICES, camelName } from '../../../src/config/fields';
import { INERT_FIELDS } from '../../../src/config/inert-fields';

export type Unit = 's' | 'ms' | 'min' | 'MiB' | 'count';

export interface Group {
  id: string;
  /** Behind the "Advanced settings" fold, as in brec's WebUI. */
  advanced: boolean;
  /** camelCase field names (the API's `optionalX` without the prefix), in display order. */
  fields: string[];
}

/** brec WebUI's settings page order (弹幕录制, 录制模式, 自动分段, 文件写入, 录制画质, Webhook, then the advanced ones); liverec's own fields join the group they belong to. */
export const GROUPS: Group[] = [
  { id: 'danmaku', advanced: false, fields: ['recordDanmaku', 'recordDanmakuSuperChat', 'recordDanmakuGuard', 'recordDanmakuGift', 'recordDanmakuRaw', 'recordDanmakuFlushInterval', 'danmakuInstantDetect'] },
  { id: 'recordMode', advanced: false, fields: ['recordMode', 'flvProcessorSplitOnScriptTag', 'flvProcessorDisableSplitOnH264AnnexB', 'flvKeepHevcCodec12', 'titleFilterPatterns', 'recordMemoryBudgetMB', 'recordFillGapsFromHls', 'recordGapFillMaxSeconds'] },
  { id: 'cutting', advanced: false, fields: ['cuttingMode', 'cuttingNumber', 'cuttingByTitle'] },
  { id: 'storage', advanced: false, fields: ['fileNameRecordTemplate', 'saveStreamCover', 'flvWriteMetadata', 'minFreeSpaceMB'] },
  { id: 'quality', advanced: false, fields: ['recordingQuality', 'recordingProtocol', 'recordingPreferOrigin'] },
  { id: 'post', advanced: false, fields: ['postRemuxToMp4', 'postDanmakuToAss', 'postCommand', 'postCommandTimeout', 'postJobConcurrency', 'previewMaxViewers'] },
  { id: 'notify', advanced: false, fields: ['notifyUrls', 'notifyEnabled', 'notifyTemplate'] },
  { id: 'objectStorage', advanced: false, fields: ['storageS3Url', 'storageDeleteLocal'] },
  { id: 'retention', advanced: false, fields: ['retentionMaxAgeDays', 'retentionMaxTotalGB', 'retentionMinFreeGB'] },
  { id: 'webhook', advanced: false, fields: ['webHookUrls', 'webHookUrlsV2', 'timingWebhookTimeout'] },
  { id: 'apiHost', advanced: true, fields: ['liveApiHost'] },
  { id: 'cookie', advanced: true, fields: ['recordingAccount', 'accountCheckInterval', 'cookie'] },
  { id: 'network', advanced: true, fields: ['networkTransportUseSystemProxy', 'networkTransportAllowedAddressFamily', 'danmakuTransport', 'danmakuAuthenticateWithStreamerUid'] },
  { id: 'timing', advanced: true, fields: ['timingCheckInterval', 'timingApiTimeout', 'timingStreamRetry', 'timingStreamRetryNoQn', 'timingWatchdogTimeout', 'timingStreamConnect', 'timingDanmakuRetry', 'timingApiBlockedPause', 'timingOriginCheckInterval', 'apiBudgetPerMinute'] },
  { id: 'userScript', advanced: true, fields: ['userScript'] },
  { id: 'liverec', advanced: true, fields: ['maxRooms'] },
  { id: 'desktop', advanced: true, fields: ['wpfShowTitleAndArea', 'wpfNotifyStreamStart'] },
];

const UNITS: Record<string, Unit> = {
  timingCheckInterval: 's', timingStreamRetryNoQn: 's', timingOriginCheckInterval: 's', recordGapFillMaxSeconds: 's', accountCheckInterval: 's',
  timingApiTimeout: 'ms', timingStreamRetry: 'ms', timingStreamConnect: 'ms', timingDanmakuRetry: 'ms', timingWatchdogTimeout: 'ms',
  timingApiBlockedPause: 'ms', timingWebhookTimeout: 'ms', postCommandTimeout: 's', postJobConcurrency: 'count', previewMaxViewers: 'count',
  recordMemoryBudgetMB: 'MiB', minFreeSpaceMB: 'MiB', recordDanmakuFlushInterval: 'count', apiBudgetPerMinute: 'count',
};

/** The unit of a field; CuttingNumber's depends on the cutting mode in effect (2 = by size). */
export const unitOf = (field: string, cuttingMode: unknown): Unit | null =>
  field === 'cuttingNumber' ? (cuttingMode === 2 ? 'MiB' : 'min') : (UNITS[field] ?? null);

/** A unit's value in milliseconds, for showing "600 s" as 10m too. */
export const UNIT_MS: Partial<Record<Unit, number>> = { s: 1000, ms: 1, min: 60_000 };

/** Every choice setting is a select, its options the values the config schema (and so the OpenAPI document) allows. */
export const ENUMS: Record<string, readonly (number | string)[]> = Object.fromEntries(
  Object.entries(CHOICES).map(([field, values]) => [camelName(field), values!]),
);
export const MULTILINE = new Set(['webHookUrls', 'webHookUrlsV2', 'titleFilterPatterns', 'userScript', 'fileNameRecordTemplate', 'postCommand', 'notifyUrls', 'notifyTemplate']);
export const SECRET = new Set(['cookie', 'notifyUrls', 'storageS3Url']);
/** Fields liverec adds to brec's set. */
export const LIVEREC_ONLY = new Set(['flvKeepHevcCodec12', 'recordMemoryBudgetMB', 'minFreeSpaceMB', 'recordingProtocol', 'timingWebhookTimeout', 'timingApiBlockedPause', 'maxRooms', 'danmakuInstantDetect', 'apiBudgetPerMinute',
  'recordingPreferOrigin', 'timingOriginCheckInterval', 'recordFillGapsFromHls', 'recordGapFillMaxSeconds',
  'postRemuxToMp4', 'postDanmakuToAss', 'postCommand', 'postCommandTimeout', 'postJobConcurrency', 'previewMaxViewers',
  'retentionMaxAgeDays', 'retentionMaxTotalGB', 'retentionMinFreeGB', 'notifyUrls', 'notifyEnabled', 'notifyTemplate',
  'storageS3Url', 'storageDeleteLocal', 'recordingAccount', 'accountCheckInterval']);

const pascal = (field: string): string => field.charAt(0).toUpperCase() + field.slice(1);
/** Why a field has no effect in liverec, or null when it has one. */
export const inertReason = (field: string): 'desktop-only' | 'not-implemented' | null =>
  (INERT_FIELDS as Record<string, 'desktop-only' | 'not-implemented'>)[pascal(field)] ?? null;

/** The groups with the fields present in `keys`, plus any field no group names (so a new config field still shows). */
export function groupFields(keys: string[]): Group[] {
  const known = new Set(GROUPS.flatMap((g) => g.fields));
  const groups = GROUPS.map((g) => ({ ...g, fields: g.fields.filter((f) => keys.includes(f)) })).filter((g) => g.fields.length > 0);
  const rest = keys.filter((k) => !known.has(k));
  if (rest.length === 0) return groups;
  const own = groups.find((g) => g.id === 'liverec');
  if (own) own.fields.push(...rest);
  else groups.push({ id: 'liverec', advanced: true, fields: rest });
  return groups;
}
