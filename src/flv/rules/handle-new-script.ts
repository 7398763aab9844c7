// HandleNewScript rule: the first onMetaData starts the output; later ones are logged (or split the file).
import { amfToJson } from '../amf-json.js';
import type { AmfValue } from '../amf.js';
import { onMetaDataMap } from '../metadata.js';
import { NEW_FILE } from '../pipeline/actions.js';
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { type FlvTag, TagFlag, TagType } from '../tag.js';

const REPEATED_MESSAGE =
  '收到直播服务器发送的 onMetaData 数据，请检查此位置是否有重复的直播片段或缺少数据。\n' +
  '造成这个问题的原因可能是录播姬所连接的直播服务器与它的上级服务器的连接断开重连了。\n数据内容: ';

/** A fresh script tag [String "onMetaData", EcmaArray map]; the map is shared with the input, as in brec. */
export function makeMetaDataTag(map: Map<string, AmfValue>): FlvTag {
  return {
    type: TagType.Script, flag: TagFlag.None, size: 0, timestamp: 0, index: -1, data: null, nalus: null, dataHash: null,
    script: [{ type: 'String', value: 'onMetaData' }, { type: 'EcmaArray', value: map }],
  };
}

export class HandleNewScriptRule implements ProcessingRule {
  constructor(private readonly splitOnScriptTag = false) {}

  run(ctx: ProcessingContext, next: () => void): void {
    ctx.perActionRun((action, out) => {
      if (action.kind !== 'Script') {
        out.push(action);
        return true;
      }
      const values = action.tag.script;
      const map = onMetaDataMap(values);
      if (!map) {
        ctx.addComment('Logging', false, `收到了非 onMetaData 的 Script Tag: ${values ? amfToJson(values) : '(null)'}`);
        return true;
      }
      if (!ctx.session.has('HandleNewScriptRule')) {
        ctx.session.set('HandleNewScriptRule', true);
        ctx.addComment('OnMetaData', false, '收到了 onMetaData');
        out.push(NEW_FILE, { kind: 'Script', tag: makeMetaDataTag(map) });
        return true;
      }
      const message = REPEATED_MESSAGE + amfToJson(values!);
      ctx.addComment('OnMetaData', false, message);
      out.push(this.splitOnScriptTag ? NEW_FILE : { kind: 'LogMessageWithLocation', message });
      out.push({ kind: 'Script', tag: makeMetaDataTag(map) });
      return true;
    });
    next();
  }
}
