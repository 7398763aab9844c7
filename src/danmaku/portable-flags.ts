// brec's `portable --danmaku` flags (None, Danmaku, SuperChat, Guard, Gift, RawData, All) as RecordDanmaku* settings.
import { LiverecError } from '../errors.js';

const FLAGS = ['none', 'danmaku', 'superchat', 'guard', 'gift', 'rawdata', 'all'] as const;

export interface DanmakuSettings {
  RecordDanmaku: boolean;
  RecordDanmakuSuperChat: boolean;
  RecordDanmakuGuard: boolean;
  RecordDanmakuGift: boolean;
  RecordDanmakuRaw: boolean;
}

/**
 * Flags separated by commas, `|` or spaces, case-insensitive. As in brec, every option is set explicitly: danmaku
 * is recorded when any flag is given, and each kind only when flagged (not the usual defaults).
 */
export function danmakuSettingsFromFlags(text: string | undefined): DanmakuSettings {
  const flags = new Set<string>();
  for (const part of (text ?? 'None').split(/[\s,|]+/).filter(Boolean)) {
    const flag = part.toLowerCase();
    if (!(FLAGS as readonly string[]).includes(flag)) {
      throw new LiverecError('BAD_DANMAKU_FLAGS', `--danmaku: unknown flag ${part} (use ${'None, Danmaku, SuperChat, Guard, Gift, RawData, All'})`);
    }
    flags.add(flag);
  }
  const has = (f: string): boolean => flags.has(f) || flags.has('all');
  return {
    RecordDanmaku: [...flags].some((f) => f !== 'none'),
    RecordDanmakuSuperChat: has('superchat'),
    RecordDanmakuGuard: has('guard'),
    RecordDanmakuGift: has('gift'),
    RecordDanmakuRaw: has('rawdata'),
  };
}
