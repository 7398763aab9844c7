// HandleDelayedAudioHeader rule: an AAC header that arrived inside a data group is moved in front of it.
import { NEW_FILE } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { TagFlag, TagType, isHeader } from '../tag.js';

export class HandleDelayedAudioHeaderRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    ctx.perActionRun((action, out) => {
      if (action.kind !== 'Data' || !action.tags.some(isHeader)) {
        out.push(action);
        return true;
      }
      const tags = action.tags;
      // Walking backwards: audio data seen after (i.e. before, in stream order) an audio header means the
      // decoder got samples it could not decode; that cannot be repaired by moving the header.
      let headerSeen = false;
      for (let i = tags.length - 1; i >= 0; i--) {
        const t = tags[i]!;
        if (t.type !== TagType.Audio) continue;
        if (t.flag !== TagFlag.None) headerSeen = true;
        else if (headerSeen) {
          ctx.addComment('Unrepairable', true, '音频数据出现在音频头之前');
          out.push({ kind: 'Disconnect', reason: '直播音频数据中间出现音频头' }, NEW_FILE);
          return false;
        }
      }
      ctx.addComment('DecodingHeader', true, '检测到延后收到的音频头');
      out.push(
        { kind: 'Header', allTags: tags.filter(isHeader), videoHeader: null, audioHeader: null },
        { kind: 'Data', tags: tags.filter((t) => !isHeader(t)) },
      );
      return true;
    });
    next();
  }
}
