// Human-readable lines for a tool result (the JSON form is printed as is).
import type { ToolTaskResult } from '../../../workers/tool.worker.js';

export function formatReport(r: ToolTaskResult): string {
  const lines = [`${r.input}: ${r.status}${r.errorMessage ? ` — ${r.errorMessage}` : ''}`];
  if ('output' in r) {
    lines.push(`  exported ${r.tagCount} tags to ${r.output}`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`  output files: ${r.outputFileCount} (tags: ${r.tagCounts.join(', ') || '-'})`);
  for (const f of r.outputFiles) lines.push(`    ${f}`);
  const issues = Object.entries(r.issueCounts).filter(([, n]) => n > 0);
  lines.push(`  issues: ${issues.length ? issues.map(([t, n]) => `${t} ${n}`).join(', ') : 'none'}${r.unrepairable ? ' (unrepairable parts)' : ''}`);
  for (const i of r.issues.slice(0, 10)) lines.push(`    ${i}`);
  lines.push(`  video: ${r.video.frameCount} frames, ${r.video.fps.toFixed(2)} fps; audio: ${r.audio.frameCount} frames, ${r.audio.fps.toFixed(2)} fps`);
  return `${lines.join('\n')}\n`;
}
