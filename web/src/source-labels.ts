// Provenance labels (origin / re-encode / transcode) in Chinese and English; a small local table until the i18n module takes it.
import type { LifecycleEvent, RecordingSource } from './types';

type Lang = 'zh' | 'en';

const STRINGS: Record<string, Record<Lang, string>> = {
  origin: { zh: '原始流', en: 'origin' },
  reencode: { zh: '二压', en: 're-encode' },
  transcode: { zh: '转码', en: 'transcode' },
  unknown: { zh: '来源未知', en: 'unknown source' },
  source: { zh: '来源', en: 'source' },
  originTitle: { zh: '主播推的原始流', en: 'the streamer\'s own stream' },
  reencodeTitle: { zh: 'CDN 重新编码的"原画"(_bluray)', en: 'the CDN\'s re-encode sold as 原画 (_bluray)' },
  transcodeTitle: { zh: '较低画质或其他编码的转码流', en: 'a lower-quality or other-codec rendition' },
  unknownTitle: { zh: '证据缺失或互相矛盾', en: 'the evidence is missing or disagrees' },
};

export const lang = (): Lang => (typeof navigator !== 'undefined' && /^zh/i.test(navigator.language) ? 'zh' : 'en');

export const t = (key: string): string => STRINGS[key]?.[lang()] ?? key;

/** The badge text and its tooltip (kind explained, then qn, codec and the evidence). */
export function sourceBadge(source: { kind: string; qn: number; codec: string; evidence: string[] }): { text: string; title: string } {
  const detail = [source.qn ? `qn ${source.qn}` : '', source.codec].filter(Boolean).join(' · ');
  return {
    text: `${t(source.kind)}${detail ? ` · ${detail}` : ''}`,
    title: `${t(`${source.kind}Title`)}\n${source.evidence.join('\n')}`,
  };
}

/** The room resource's recordingSource, or the Source of a FileOpening/FileClosed event, in one shape. */
export function sourceOfEvent(e: LifecycleEvent): RecordingSource | null {
  const s = e.EventData.Source as { Kind?: string; Qn?: number; Codec?: string; Evidence?: string[] } | undefined;
  return s?.Kind ? { kind: s.Kind, qn: s.Qn ?? 0, codec: s.Codec ?? '', evidence: s.Evidence ?? [] } : null;
}
