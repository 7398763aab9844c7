// HandleEndTag rule: an AVC end-of-sequence tag ends the current file.
import { NEW_FILE } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';

export class HandleEndTagRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    ctx.perActionRun((action, out) => {
      out.push(action);
      if (action.kind === 'End') {
        ctx.addComment('Logging', false, '因收到 End Tag 分段');
        out.push(NEW_FILE);
      }
      return true;
    });
    next();
  }
}
