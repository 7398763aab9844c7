// RemoveFillerData rule: drops H.264 filler NALUs (type 12) from video tags; the written body shrinks.
import { NALU_FILLER_DATA, type NaluSummary, naluSummary } from '../nalu.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { TagType } from '../tag.js';

export { NALU_FILLER_DATA };
const summary: NaluSummary = { ok: false, bodySize: 0, filler: false, tiles: false };

export class RemoveFillerDataRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    next();
    for (const action of ctx.actions) {
      if (action.kind !== 'Data') continue;
      for (const tag of action.tags) {
        if (tag.type !== TagType.Video || !naluSummary(tag, summary).filler) continue;
        tag.nalus = tag.nalus!.filter((n) => n.type !== NALU_FILLER_DATA);
      }
    }
  }
}
