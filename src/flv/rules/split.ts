// Split rule (runtime): a one-shot request to start a new file before the next group.
import { NEW_FILE } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';

/** Used by manual split, cutting by time or size, and title change: the cut falls on a group boundary. */
export class SplitRule implements ProcessingRule {
  private pending = false;

  /** The next processed group starts with a NewFile action. */
  splitBeforeNextGroup(): void {
    this.pending = true;
  }

  get splitPending(): boolean {
    return this.pending;
  }

  run(ctx: ProcessingContext, next: () => void): void {
    if (this.pending) {
      this.pending = false;
      ctx.addComment('Logging', false, 'New file before data by split rule');
      ctx.actions.unshift(NEW_FILE);
    }
    next();
  }
}
