// The session-scoped repair pipeline: one processed group in, actions + comments + stats out.
import { DropRepeatedTagsRule } from './rules/drop-repeated-tags.js';
import { LiverecError } from '../errors.js';
import type { PipelineAction, ProcessingComment } from './pipeline/actions.js';
import { ProcessingContext, type ProcessingRule, SessionItems, composeRules } from './pipeline/context.js';
import { FfmpegDetectionRule } from './rules/ffmpeg-detection.js';
import { HandleDelayedAudioHeaderRule } from './rules/handle-delayed-audio-header.js';
import { HandleEndTagRule } from './rules/handle-end-tag.js';
import { HandleNewHeaderRule } from './rules/handle-new-header.js';
import { HandleNewScriptRule } from './rules/handle-new-script.js';
import { RemoveDuplicatedChunkRule } from './rules/remove-duplicated-chunk.js';
import { RemoveFillerDataRule } from './rules/remove-filler-data.js';
import { SplitRule } from './rules/split.js';
import { type RecordingStatsDelta, StatsRule } from './rules/stats.js';
import { ToolStatsRule } from './rules/tool-stats.js';
import { UpdateTimestampJumpRule } from './rules/update-timestamp-jump.js';

export interface FlvProcessorOptions {
  /**
   * - `recording` (default): StatsRule, SplitRule, the default rules, filler removal (brec's runtime chain).
   * - `tool`: ToolStats + FfmpegDetection, the default rules, filler removal (brec's ToolBox chain).
   * - `plain`: FfmpegDetection, the default rules, filler removal (brec's test chain).
   */
  preset?: 'recording' | 'tool' | 'plain';
  /** A later onMetaData starts a new file instead of only being logged (brec's FlvProcessorSplitOnScriptTag). */
  splitOnScriptTag?: boolean;
}

/** The result of processing one group. */
export interface ProcessedGroup {
  /** Actions for the writer, in order. */
  actions: PipelineAction[];
  /** Everything the rules noticed (required = repaired a problem; informational otherwise). */
  comments: ProcessingComment[];
  /** brec RecordingStats for this group (`recording` preset only). */
  stats: RecordingStatsDelta | null;
  /** Reason of the first Disconnect action: the live session should end. */
  disconnect: string | null;
}

/**
 * The default rules in brec's order. Effective order on the action list: EndTag, DelayedAudioHeader,
 * NewScript, NewHeader, RemoveDuplicated, then (post) filler removal and timestamp fixing.
 */
export function defaultRules(splitOnScriptTag = false): ProcessingRule[] {
  return [
    new HandleEndTagRule(),
    new HandleDelayedAudioHeaderRule(),
    new UpdateTimestampJumpRule(),
    new HandleNewScriptRule(splitOnScriptTag),
    new HandleNewHeaderRule(),
    new RemoveDuplicatedChunkRule(),
    new DropRepeatedTagsRule(),
  ];
}

export class FlvProcessor {
  readonly session = new SessionItems();
  readonly stats: StatsRule | null = null;
  readonly split: SplitRule | null = null;
  readonly toolStats: ToolStatsRule | null = null;
  readonly ffmpeg: FfmpegDetectionRule | null = null;
  private readonly chain: (ctx: ProcessingContext) => void;

  constructor(options: FlvProcessorOptions = {}) {
    const preset = options.preset ?? 'recording';
    const rules: ProcessingRule[] = [];
    if (preset === 'recording') {
      rules.push((this.stats = new StatsRule()), (this.split = new SplitRule()));
    } else {
      if (preset === 'tool') rules.push((this.toolStats = new ToolStatsRule()));
      rules.push((this.ffmpeg = new FfmpegDetectionRule()));
    }
    rules.push(...defaultRules(options.splitOnScriptTag), new RemoveFillerDataRule());
    this.chain = composeRules(rules);
  }

  /** Runs one grouped action through the rules. */
  process(group: PipelineAction): ProcessedGroup {
    const ctx = new ProcessingContext(group, this.session);
    this.chain(ctx);
    let disconnect: string | null = null;
    for (const a of ctx.actions) {
      if (a.kind === 'Disconnect') {
        disconnect = a.reason;
        break;
      }
    }
    return { actions: ctx.actions, comments: ctx.comments, stats: this.stats?.last ?? null, disconnect };
  }

  /**
   * Starts a new file before the next group (manual split, cutting by time/size, title change).
   * Only the `recording` preset has the split rule; elsewhere this throws.
   */
  requestSplit(): void {
    if (!this.split) throw new LiverecError('FLV_NO_SPLIT_RULE', 'requestSplit needs the recording preset');
    this.split.splitBeforeNextGroup();
  }
}
