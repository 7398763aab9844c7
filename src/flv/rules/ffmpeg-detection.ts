// FfmpegDetection rule: observes whether the input looks like an ffmpeg (Lavf) output with an End tag.
import { getString, onMetaDataMap } from '../metadata.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';

/** Only observes; never changes the actions. `tool analyze` reports both flags together. */
export class FfmpegDetectionRule implements ProcessingRule {
  endTagDetected = false;
  lavfEncoderDetected = false;

  run(ctx: ProcessingContext, next: () => void): void {
    for (const action of ctx.actions) {
      if (action.kind === 'End') this.endTagDetected = true;
      else if (action.kind === 'Script') {
        const map = onMetaDataMap(action.tag.script);
        const encoder = map ? getString(map, 'encoder') : undefined;
        if (encoder?.startsWith('Lavf')) this.lavfEncoderDetected = true;
      }
    }
    next();
  }
}
