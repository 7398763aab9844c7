// RemoveFillerData rule: drops filler NALUs (H.264 type 12, HEVC type 38) from video tags; the written body shrinks.
import { fillerType, hevcNalus } from '../codecs/nal.js';
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
        const filler = fillerType(hevcNalus(tag.data));
        tag.nalus = tag.nalus!.filter((n) => n.type !== filler);
      }
    }
  }
}
