// Small builders for synthetic tags used by the grouping and rule tests.
import type { AmfValue } from '../../src/flv/amf.js';
import { makeOnMetaData } from '../../src/flv/metadata.js';
import type { PipelineAction } from '../../src/flv/pipeline/actions.js';
import { ProcessingContext, type ProcessingRule, SessionItems, composeRules } from '../../src/flv/pipeline/context.js';
import { type FlvTag, TagFlag, TagType } from '../../src/flv/tag.js';

let index = 0;
const base = (type: FlvTag['type'], flag: number, timestamp: number, data: Uint8Array | null, size = data?.length ?? 100): FlvTag => ({
  type, flag, size, timestamp, index: ++index, data, nalus: null, dataHash: null,
});

/** AAC audio frame. */
export const a = (ts: number, bytes: number[] = [0xaf, 1, ts & 0xff, 9]): FlvTag => base(TagType.Audio, TagFlag.None, ts, Uint8Array.from(bytes));
/** AVC frame; keyframe when `key`. The body carries one slice NALU. */
export function v(ts: number, key = false, extra?: number[]): FlvTag {
  const nal = [key ? 0x65 : 0x41, ...(extra ?? [ts & 0xff, 7])];
  const body = Uint8Array.from([key ? 0x17 : 0x27, 1, 0, 0, 0, 0, 0, 0, nal.length, ...nal]);
  const t = base(TagType.Video, key ? TagFlag.Keyframe : TagFlag.None, ts, body);
  t.nalus = [{ start: 9, fullSize: nal.length, type: nal[0]! & 0x1f }];
  return t;
}
/** AAC sequence header. */
export const ah = (tail = 0x10): FlvTag => base(TagType.Audio, TagFlag.Header, 0, Uint8Array.from([0xaf, 0, 0x12, tail]));
/** AVC sequence header. */
export const vh = (tail = 0x01): FlvTag => base(TagType.Video, TagFlag.Header | TagFlag.Keyframe, 0, Uint8Array.from([0x17, 0, 0, 0, 0, 1, 0x64, 0, tail]));
/** AVC end of sequence. */
export const end = (ts: number): FlvTag => base(TagType.Video, TagFlag.Keyframe | TagFlag.End, ts, Uint8Array.from([0x17, 2, 0, 0, 0]));
/** A script tag with the given values (default: onMetaData with one key). */
export function script(values: AmfValue[] = makeOnMetaData(new Map([['width', { type: 'Number', value: 1280 }]]))): FlvTag {
  const t = base(TagType.Script, TagFlag.None, 0, null, 50);
  t.script = values;
  return t;
}

/**
 * A GOP: keyframe at `start`, then `frames - 1` video frames and audio, 40/23 ms apart. Bodies depend on
 * `seed` and the position in the GOP only, so equal seeds give equal content at any timestamp.
 */
export function gop(start: number, frames = 10, seed = 0): FlvTag[] {
  const tags: FlvTag[] = [];
  let audio = start;
  let k = 0;
  for (let i = 0; i < frames; i++) {
    const ts = start + i * 40;
    tags.push(v(ts, i === 0, [seed & 0xff, i]));
    while (audio < ts + 40) {
      tags.push(a(audio, [0xaf, 1, seed & 0xff, k++ & 0xff]));
      audio += 23;
    }
  }
  return tags;
}

/** Runs `rules` over one action with the given session; returns the context. */
export function runRules(rules: ProcessingRule[], action: PipelineAction, session = new SessionItems()): ProcessingContext {
  const ctx = new ProcessingContext(action, session);
  composeRules(rules)(ctx);
  return ctx;
}

export const kinds = (actions: readonly PipelineAction[]): string[] => actions.map((x) => x.kind);
