// The per-group processing context: the action list being transformed, its comments, and the session state.
import type { CommentType, PipelineAction, ProcessingComment } from './actions.js';

/** State that lives for a whole recording session (or one tool run); each rule keeps its own entry. */
export class SessionItems {
  private readonly items = new Map<string, unknown>();

  /** The rule's state under `key`, created by `init` on first use. */
  get<T>(key: string, init: () => T): T {
    let v = this.items.get(key) as T | undefined;
    if (v === undefined) {
      v = init();
      this.items.set(key, v);
    }
    return v;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  set(key: string, value: unknown): void {
    this.items.set(key, value);
  }
}

export class ProcessingContext {
  actions: PipelineAction[];
  readonly comments: ProcessingComment[] = [];

  constructor(first: PipelineAction, readonly session: SessionItems) {
    this.actions = [first];
  }

  addComment(type: CommentType, required: boolean, text: string): void {
    this.comments.push({ type, required, text });
  }

  /**
   * brec's per-action flat-map: `fn` appends replacements for one action to `out`; returning false stops
   * the whole map (the remaining actions are dropped, what was produced so far is kept).
   */
  perActionRun(fn: (action: PipelineAction, out: PipelineAction[]) => boolean): void {
    const out: PipelineAction[] = [];
    for (const action of this.actions) {
      if (!fn(action, out)) break;
    }
    this.actions = out;
  }
}

/** A rule: transforms `ctx` and calls `next()` exactly once (before or after its own work). */
export interface ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void;
}

/** Nests rules so that the first one is outermost, like brec's pipeline builder. */
export function composeRules(rules: readonly ProcessingRule[]): (ctx: ProcessingContext) => void {
  return (ctx) => {
    const step = (i: number): void => {
      if (i < rules.length) rules[i]!.run(ctx, () => step(i + 1));
    };
    step(0);
  };
}
