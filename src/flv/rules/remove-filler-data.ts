// RemoveFillerData rule: drops H.264 filler NALUs (type 12) from video tags; the written body shrinks.
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';

export const NALU_FILLER_DATA = 12;

export class RemoveFillerDataRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    next();
    for (const action of ctx.actions) {
      if (action.kind !== 'Data') continue;
      for (const tag of action.tags) {
        const nalus = tag.nalus;
        if (!nalus) continue;
        let filler = false;
        for (const n of nalus) if (n.type === NALU_FILLER_DATA) filler = true;
        if (filler) tag.nalus = nalus.filter((n) => n.type !== NALU_FILLER_DATA);
      }
    }
  }
}
