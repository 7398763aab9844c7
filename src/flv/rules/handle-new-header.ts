// HandleNewHeader rule: drops repeated sequence headers and starts a new file when they change.
import { NEW_FILE } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { type FlvTag, TagType, cloneTag, describeTag } from '../tag.js';

const MULTIPLE_LOG = '连续遇到了多个不同的音视频Header，如果录制的文件不能正常播放可以尝试用这里的数据进行手动修复\n';

interface HeaderStore { video: FlvTag | null; audio: FlvTag | null }

/** Byte equality of two header bodies; a missing body never equals anything (as in brec). */
export function sameBytes(a: FlvTag, b: FlvTag): boolean {
  if (!a.data || !b.data || a.data.length !== b.data.length) return false;
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length).equals(b.data);
}

const hex = (d: Uint8Array | null): string => (d ? Buffer.from(d.buffer, d.byteOffset, d.length).toString('hex').toUpperCase() : '');

export class HandleNewHeaderRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    ctx.perActionRun((action, out) => {
      if (action.kind !== 'Header') {
        out.push(action);
        return true;
      }
      const store = ctx.session.get<HeaderStore>('HandleNewHeaderRule', () => ({ video: null, audio: null }));
      const last = { video: store.video, audio: store.audio };
      let multiple = false;
      // Several different headers of one type in a burst: the last one wins, and the burst is suspicious.
      const select = (type: number): FlvTag | null => {
        const of = action.allTags.filter((t) => t.type === type);
        if (of.length <= 1) return of[0] ?? null;
        if (of.slice(1).every((t) => sameBytes(of[0]!, t))) return of[0]!;
        multiple = true;
        return of[of.length - 1]!;
      };
      let video = select(TagType.Video);
      let audio = select(TagType.Audio);
      if (multiple) ctx.addComment('DecodingHeader', true, '收到了连续多个 Header，新建文件');
      let split = multiple;
      const decide = (prev: FlvTag | null, cur: FlvTag | null): FlvTag | null => {
        if (!prev) {
          if (cur) split = true;
          return cur;
        }
        if (!cur) return prev;
        if (!sameBytes(cur, prev)) split = true;
        return cur;
      };
      video = decide(last.video, video);
      audio = decide(last.audio, audio);
      if (video) store.video = cloneTag(video);
      if (audio) store.audio = cloneTag(audio);
      const notFirstTime = last.video !== null || last.audio !== null;
      if (notFirstTime && split && !multiple) ctx.addComment('DecodingHeader', true, '因为 Header 问题新建文件');
      if (notFirstTime && split) out.push(NEW_FILE);
      if (split) {
        out.push({
          kind: 'Header',
          allTags: [],
          videoHeader: video ? cloneTag(video) : null,
          audioHeader: audio ? cloneTag(audio) : null,
        });
      }
      if (multiple) {
        let message = MULTIPLE_LOG;
        for (const t of action.allTags) message += `\n${describeTag(t)}\n${hex(t.data)}\n`;
        out.push({ kind: 'LogMessageWithLocation', message });
      }
      return true;
    });
    next();
  }
}
