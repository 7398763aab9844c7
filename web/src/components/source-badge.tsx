// The provenance badge (origin / re-encode / transcode) of a room or file, with the evidence as its tooltip.
import { sourceBadge } from '../source-labels';
import type { RecordingSource } from '../types';

export function SourceBadge({ source }: { source: RecordingSource }) {
  const b = sourceBadge(source);
  return <span class={`badge source-${source.kind}`} data-badge="source" data-source={source.kind} title={b.title}>{b.text}</span>;
}
