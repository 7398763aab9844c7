// Provenance labels (origin / re-encode / transcode) through the i18n dictionaries, and the Source of a file event.
import { t } from './i18n';
import type { LifecycleEvent, RecordingSource } from './types';

const KINDS = new Set(['origin', 'reencode', 'transcode', 'unknown']);

/** The badge text and its tooltip (kind explained, then qn, codec and the evidence). */
export function sourceBadge(source: { kind: string; qn: number; codec: string; evidence: string[] }): { text: string; title: string } {
  const kind = KINDS.has(source.kind) ? source.kind : 'unknown';
  const detail = [source.qn ? `qn ${source.qn}` : '', source.codec].filter(Boolean).join(' · ');
  return {
    text: `${t(`source.${kind}`)}${detail ? ` · ${detail}` : ''}`,
    title: `${t(`source.${kind}.title`)}\n${source.evidence.join('\n')}`,
  };
}

/** The room resource's recordingSource, or the Source of a FileOpening/FileClosed event, in one shape. */
export function sourceOfEvent(e: LifecycleEvent): RecordingSource | null {
  const s = e.EventData.Source as { Kind?: string; Qn?: number; Codec?: string; Evidence?: string[] } | undefined;
  return s?.Kind ? { kind: s.Kind, qn: s.Qn ?? 0, codec: s.Codec ?? '', evidence: s.Evidence ?? [] } : null;
}
