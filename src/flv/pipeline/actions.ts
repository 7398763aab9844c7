// Pipeline actions and processing comments: the vocabulary shared by grouping, the rules and the writer.
import type { FlvTag } from '../tag.js';

/** A run of A/V data tags: in practice one GOP (plus audio folded into it). */
export interface DataAction { kind: 'Data'; tags: FlvTag[] }
/**
 * A burst of sequence headers. Grouping fills `allTags`; the header rule emits actions with empty
 * `allTags` and the chosen `videoHeader` / `audioHeader`, which are what the writer uses.
 */
export interface HeaderAction { kind: 'Header'; allTags: FlvTag[]; videoHeader: FlvTag | null; audioHeader: FlvTag | null }
export interface ScriptAction { kind: 'Script'; tag: FlvTag }
export interface EndAction { kind: 'End'; tag: FlvTag }
/** Close the current output file; the next data opens a new one. */
export interface NewFileAction { kind: 'NewFile' }
/** The live session cannot continue (the recorder ends it); the writer ignores it. */
export interface DisconnectAction { kind: 'Disconnect'; reason: string }
/** A message for the text log that accompanies the current output file. */
export interface LogMessageAction { kind: 'LogMessageWithLocation'; message: string }

export type PipelineAction =
  | DataAction
  | HeaderAction
  | ScriptAction
  | EndAction
  | NewFileAction
  | DisconnectAction
  | LogMessageAction;

export const NEW_FILE: NewFileAction = Object.freeze({ kind: 'NewFile' }) as NewFileAction;

/** brec's CommentType names, in its enum order. */
export const COMMENT_TYPES = [
  'Other',
  'Logging',
  'Unrepairable',
  'TimestampJump',
  'TimestampOffset',
  'DecodingHeader',
  'RepeatingData',
  'OnMetaData',
] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

/** The comment types that `tool analyze` reports as issues. */
export const ISSUE_TYPES = ['Other', 'Unrepairable', 'TimestampJump', 'TimestampOffset', 'DecodingHeader', 'RepeatingData'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** What a rule noticed. `required` = the input needed repair (brec's ActionRequired); otherwise informational. */
export interface ProcessingComment {
  type: CommentType;
  required: boolean;
  text: string;
}

/** brec's display form `(Type,A|C): text`. */
export function describeComment(c: ProcessingComment): string {
  return `(${c.type},${c.required ? 'A' : 'C'}): ${c.text}`;
}
