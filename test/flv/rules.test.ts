// Each repair rule on its own, with brec's exact semantics (actions, comments, texts, session state).
import { describe, expect, it } from 'vitest';
import { SessionItems } from '../../src/flv/pipeline/context.js';
import { FlvProcessor } from '../../src/flv/processor.js';
import { HandleDelayedAudioHeaderRule } from '../../src/flv/rules/handle-delayed-audio-header.js';
import { HandleEndTagRule } from '../../src/flv/rules/handle-end-tag.js';
import { HandleNewHeaderRule } from '../../src/flv/rules/handle-new-header.js';
import { HandleNewScriptRule } from '../../src/flv/rules/handle-new-script.js';
import { RemoveDuplicatedChunkRule } from '../../src/flv/rules/remove-duplicated-chunk.js';
import { RemoveFillerDataRule } from '../../src/flv/rules/remove-filler-data.js';
import { UpdateTimestampJumpRule } from '../../src/flv/rules/update-timestamp-jump.js';
import { encodeTagBody } from '../../src/flv/tag-encoding.js';
import type { FlvTag } from '../../src/flv/tag.js';
import { a, ah, end, gop, kinds, runRules, script, v, vh } from './tags.js';

describe('HandleEndTagRule', () => {
  it('keeps the End tag and starts a new file after it', () => {
    const ctx = runRules([new HandleEndTagRule()], { kind: 'End', tag: end(100) });
    expect(kinds(ctx.actions)).toEqual(['End', 'NewFile']);
    expect(ctx.comments).toEqual([{ type: 'Logging', required: false, text: '因收到 End Tag 分段' }]);
  });
});

describe('HandleDelayedAudioHeaderRule', () => {
  const rule = new HandleDelayedAudioHeaderRule();

  it('moves a header that arrived inside a data group in front of it', () => {
    const tags = [v(0, true), v(40), ah(), a(50), a(73)];
    const ctx = runRules([rule], { kind: 'Data', tags });
    expect(kinds(ctx.actions)).toEqual(['Header', 'Data']);
    expect((ctx.actions[0] as { allTags: FlvTag[] }).allTags).toEqual([tags[2]]);
    expect((ctx.actions[1] as { tags: FlvTag[] }).tags).toEqual([tags[0], tags[1], tags[3], tags[4]]);
    expect(ctx.comments).toEqual([{ type: 'DecodingHeader', required: true, text: '检测到延后收到的音频头' }]);
  });

  it('audio data before an audio header is unrepairable: Disconnect, NewFile, and the rest is dropped', () => {
    const ctx = runRules([rule], { kind: 'Data', tags: [v(0, true), a(10), ah(), a(50)] });
    expect(ctx.actions).toEqual([{ kind: 'Disconnect', reason: '直播音频数据中间出现音频头' }, { kind: 'NewFile' }]);
    expect(ctx.comments).toEqual([{ type: 'Unrepairable', required: true, text: '音频数据出现在音频头之前' }]);
  });

  it('leaves groups without headers alone', () => {
    const tags = gop(0);
    const ctx = runRules([rule], { kind: 'Data', tags });
    expect(ctx.actions).toEqual([{ kind: 'Data', tags }]);
    expect(ctx.comments).toEqual([]);
  });
});

describe('UpdateTimestampJumpRule', () => {
  const rule = new UpdateTimestampJumpRule();
  const data = (tags: FlvTag[]) => ({ kind: 'Data' as const, tags });

  it('rebases the first group of a file to its minimum timestamp when that is above 500 or below 0', () => {
    for (const start of [501, 9998, -1, -5000]) {
      const tags = gop(start);
      const ctx = runRules([rule], data(tags));
      expect(tags[0]!.timestamp).toBe(0);
      expect(ctx.comments).toHaveLength(1);
      expect(ctx.comments[0]!.type).toBe('TimestampJump');
      expect(ctx.comments[0]!.text).toBe(`${start < 0 ? '时间戳变小' : '时间戳间隔过大'}, curr: ${start}, diff: ${start}`);
    }
  });

  it('keeps a small positive start (up to 500 ms) as it is', () => {
    const tags = gop(19);
    const ctx = runRules([rule], data(tags));
    expect(tags[0]!.timestamp).toBe(19);
    expect(ctx.comments).toEqual([]);
  });

  it('closes a gap or a backward jump inside a session at the predicted next timestamp', () => {
    const session = new SessionItems();
    const g1 = gop(0);
    runRules([rule], data(g1), session);
    // gop(0): video 0..360 (40 ms apart) → next video 400; audio last 391 (23 ms) → 414; target = 414.
    const g2 = gop(60_000);
    const ctx = runRules([rule], data(g2), session);
    expect(ctx.comments.map((c) => c.text)).toEqual(['时间戳间隔过大, curr: 60000, diff: 59609']);
    expect(g2[0]!.timestamp).toBe(414);
    const g3 = gop(10);
    const back = runRules([rule], data(g3), session);
    expect(back.comments[0]!.text.startsWith('时间戳变小, curr: 10, diff: ')).toBe(true);
    expect(g3[0]!.timestamp).toBeGreaterThan(g2[g2.length - 1]!.timestamp);
  });

  it('tolerates a small backward step (down to -500 ms) inside a session', () => {
    const session = new SessionItems();
    runRules([rule], data(gop(0)), session);
    const g = gop(300);
    expect(runRules([rule], data(g), session).comments).toEqual([]);
    expect(g[0]!.timestamp).toBe(300);
  });

  it('End tags: within 500 ms of the last original they get the offset, otherwise the predicted timestamp', () => {
    const session = new SessionItems();
    const g = gop(1000);
    const last = g.at(-1)!.timestamp;
    runRules([rule], data(g), session);
    const near = end(last + 5);
    runRules([rule], { kind: 'End', tag: near }, session);
    expect(near.timestamp).toBe(last + 5 - 1000);
    const far = end(99_999);
    runRules([rule], { kind: 'End', tag: far }, session);
    expect(far.timestamp).toBe(414);
  });

  it('NewFile and Header actions reset the state (header timestamps become 0)', () => {
    const session = new SessionItems();
    runRules([rule], data(gop(0)), session);
    runRules([rule], { kind: 'NewFile' }, session);
    const g = gop(5000);
    expect(runRules([rule], data(g), session).comments).toHaveLength(1);
    expect(g[0]!.timestamp).toBe(0);
    const video = vh();
    video.timestamp = 77;
    runRules([rule], { kind: 'Header', allTags: [], videoHeader: video, audioHeader: null }, session);
    expect(video.timestamp).toBe(0);
    const g2 = gop(700);
    expect(runRules([rule], data(g2), session).comments).toHaveLength(1);
  });

  it('Script tags get the predicted next timestamp', () => {
    const session = new SessionItems();
    runRules([rule], data(gop(0)), session);
    const s = script();
    runRules([rule], { kind: 'Script', tag: s }, session);
    expect(s.timestamp).toBe(414);
  });
});

describe('HandleNewScriptRule', () => {
  it('the first onMetaData starts the output; later ones are logged with their JSON', () => {
    const session = new SessionItems();
    const first = runRules([new HandleNewScriptRule()], { kind: 'Script', tag: script() }, session);
    expect(kinds(first.actions)).toEqual(['NewFile', 'Script']);
    expect(first.comments).toEqual([{ type: 'OnMetaData', required: false, text: '收到了 onMetaData' }]);
    const out = (first.actions[1] as { tag: FlvTag }).tag;
    expect([out.size, out.timestamp, out.flag, out.script![0]]).toEqual([0, 0, 0, { type: 'String', value: 'onMetaData' }]);
    expect(out.script![1]!.type).toBe('EcmaArray');
    const later = runRules([new HandleNewScriptRule()], { kind: 'Script', tag: script() }, session);
    expect(kinds(later.actions)).toEqual(['LogMessageWithLocation', 'Script']);
    expect(later.comments[0]!.required).toBe(false);
    expect((later.actions[0] as { message: string }).message).toContain('收到直播服务器发送的 onMetaData 数据');
    expect((later.actions[0] as { message: string }).message).toContain('数据内容: [{"Type":"String","Value":"onMetaData"},{"Type":"EcmaArray","Value":{"width"');
  });

  it('with SplitOnScriptTag a later onMetaData starts a new file instead', () => {
    const session = new SessionItems();
    runRules([new HandleNewScriptRule(true)], { kind: 'Script', tag: script() }, session);
    expect(kinds(runRules([new HandleNewScriptRule(true)], { kind: 'Script', tag: script() }, session).actions)).toEqual(['NewFile', 'Script']);
  });

  it('accepts the 3-value form with a trailing Null and an Object value (converted to an ECMA array)', () => {
    const map = new Map([['a', { type: 'Number' as const, value: 1 }]]);
    const ctx = runRules([new HandleNewScriptRule()], { kind: 'Script', tag: script([{ type: 'String', value: 'onMetaData' }, { type: 'Object', value: map }, { type: 'Null' }]) });
    const values = (ctx.actions[1] as { tag: FlvTag }).tag.script!;
    expect(values).toEqual([{ type: 'String', value: 'onMetaData' }, { type: 'EcmaArray', value: map }]);
  });

  it('drops scripts that are not onMetaData (or undecodable) with a Logging comment', () => {
    for (const values of [[{ type: 'String' as const, value: 'onCuePoint' }, { type: 'Null' as const }], null]) {
      const tag = script(values ?? []);
      if (values === null) tag.script = null;
      const ctx = runRules([new HandleNewScriptRule()], { kind: 'Script', tag });
      expect(ctx.actions).toEqual([]);
      expect(ctx.comments[0]!.type).toBe('Logging');
      expect(ctx.comments[0]!.text.startsWith('收到了非 onMetaData 的 Script Tag: ')).toBe(true);
    }
  });
});

describe('HandleNewHeaderRule', () => {
  const header = (...allTags: FlvTag[]) => ({ kind: 'Header' as const, allTags, videoHeader: null, audioHeader: null });

  it('the first burst emits the chosen headers without comments; an identical burst emits nothing', () => {
    const session = new SessionItems();
    const first = runRules([new HandleNewHeaderRule()], header(vh(), ah()), session);
    expect(kinds(first.actions)).toEqual(['Header']);
    expect(first.comments).toEqual([]);
    const h = first.actions[0] as { videoHeader: FlvTag; audioHeader: FlvTag };
    expect([h.videoHeader.type, h.audioHeader.type]).toEqual([9, 8]);
    expect(runRules([new HandleNewHeaderRule()], header(vh(), ah()), session).actions).toEqual([]);
    expect(runRules([new HandleNewHeaderRule()], header(ah()), session).actions).toEqual([]);
  });

  it('a changed header starts a new file with the new header and reuses the other one', () => {
    const session = new SessionItems();
    runRules([new HandleNewHeaderRule()], header(vh(1), ah()), session);
    const ctx = runRules([new HandleNewHeaderRule()], header(vh(2)), session);
    expect(kinds(ctx.actions)).toEqual(['NewFile', 'Header']);
    expect(ctx.comments).toEqual([{ type: 'DecodingHeader', required: true, text: '因为 Header 问题新建文件' }]);
    const h = ctx.actions[1] as { videoHeader: FlvTag; audioHeader: FlvTag };
    expect(h.videoHeader.data![8]).toBe(2);
    expect(h.audioHeader.data).toEqual(ah().data);
  });

  it('identical duplicates within a burst are one header', () => {
    const ctx = runRules([new HandleNewHeaderRule()], header(ah(), ah(), vh()));
    expect(kinds(ctx.actions)).toEqual(['Header']);
    expect(ctx.comments).toEqual([]);
  });

  it('several different headers in a burst: last one wins, a required comment, and the bytes go to the text log', () => {
    const session = new SessionItems();
    const first = runRules([new HandleNewHeaderRule()], header(vh(), ah(1), ah(2)), session);
    expect(kinds(first.actions)).toEqual(['Header', 'LogMessageWithLocation']);
    expect(first.comments).toEqual([{ type: 'DecodingHeader', required: true, text: '收到了连续多个 Header，新建文件' }]);
    expect((first.actions[0] as { audioHeader: FlvTag }).audioHeader.data![3]).toBe(2);
    expect((first.actions[1] as { message: string }).message).toBe(
      '连续遇到了多个不同的音视频Header，如果录制的文件不能正常播放可以尝试用这里的数据进行手动修复\n' +
        '\nV, KH-, TS=0, Size=9\n170000000001640001\n' +
        '\nA, -H-, TS=0, Size=4\nAF001201\n' +
        '\nA, -H-, TS=0, Size=4\nAF001202\n',
    );
    const again = runRules([new HandleNewHeaderRule()], header(ah(3), ah(4)), session);
    expect(kinds(again.actions)).toEqual(['NewFile', 'Header', 'LogMessageWithLocation']);
    expect(again.comments.map((c) => c.text)).toEqual(['收到了连续多个 Header，新建文件']);
  });
});

describe('RemoveDuplicatedChunkRule', () => {
  const data = (tags: FlvTag[]) => ({ kind: 'Data' as const, tags });

  it('drops a group whose content equals one of the last 16 kept groups', () => {
    const session = new SessionItems();
    const rule = new RemoveDuplicatedChunkRule();
    expect(kinds(runRules([rule], data(gop(0, 10, 1)), session).actions)).toEqual(['Data']);
    expect(kinds(runRules([rule], data(gop(400, 10, 2)), session).actions)).toEqual(['Data']);
    // Same bodies, different timestamps: brec hashes bodies only.
    const dup = runRules([rule], data(gop(800, 10, 1)), session);
    expect(dup.actions).toEqual([]);
    expect(dup.comments).toEqual([{ type: 'RepeatingData', required: true, text: '重复数据' }]);
  });

  it('forgets groups older than the last 16', () => {
    const session = new SessionItems();
    const rule = new RemoveDuplicatedChunkRule();
    for (let i = 0; i < 17; i++) runRules([rule], data(gop(i * 400, 10, i)), session);
    expect(kinds(runRules([rule], data(gop(0, 10, 0)), session).actions)).toEqual(['Data']);
    expect(runRules([rule], data(gop(0, 10, 16)), session).actions).toEqual([]);
  });

  it('more than 10 repeats in a row emit a Disconnect (and the count starts again)', () => {
    const session = new SessionItems();
    const rule = new RemoveDuplicatedChunkRule();
    runRules([rule], data(gop(0, 10, 9)), session);
    const disconnects: number[] = [];
    for (let i = 1; i <= 22; i++) {
      const ctx = runRules([rule], data(gop(0, 10, 9)), session);
      if (ctx.actions.length) {
        expect(ctx.actions).toEqual([{ kind: 'Disconnect', reason: '连续收到了 10 段重复数据' }]);
        disconnects.push(i);
      }
    }
    expect(disconnects).toEqual([11, 22]);
    runRules([rule], data(gop(0, 10, 10)), session);
  });

  it('uses DataHash when present; tags with neither hash nor bytes contribute nothing (count only)', () => {
    const session = new SessionItems();
    const rule = new RemoveDuplicatedChunkRule();
    const bare = (n: number, hash?: string): FlvTag[] =>
      Array.from({ length: n }, (_, i) => ({ ...a(i * 23), data: null, dataHash: hash ?? null }));
    expect(runRules([rule], data(bare(5)), session).actions).toHaveLength(1);
    expect(runRules([rule], data(bare(5)), session).actions).toHaveLength(0);
    expect(runRules([rule], data(bare(6)), session).actions).toHaveLength(1);
    expect(runRules([rule], data(bare(5, 'AAAAAAAAAAAAAAAA')), session).actions).toHaveLength(1);
    expect(runRules([rule], data(bare(5, 'AAAAAAAAAAAAAAAA')), session).actions).toHaveLength(0);
    expect(runRules([rule], data(bare(5, 'BBBBBBBBBBBBBBBB')), session).actions).toHaveLength(1);
  });
});

describe('RemoveFillerDataRule', () => {
  it('removes filler NALUs: the written body shrinks, Size stays the input size', () => {
    // SEI (3 bytes), filler (4 bytes), IDR slice (2 bytes).
    const body = Uint8Array.from([0x17, 1, 0, 0, 0, 0, 0, 0, 3, 6, 5, 0x80, 0, 0, 0, 4, 0x0c, 0xff, 0xff, 0x80, 0, 0, 0, 2, 0x65, 0x88]);
    const tag: FlvTag = { ...v(0, true), data: body, size: body.length, nalus: [{ start: 9, fullSize: 3, type: 6 }, { start: 16, fullSize: 4, type: 12 }, { start: 24, fullSize: 2, type: 5 }] };
    runRules([new RemoveFillerDataRule()], { kind: 'Data', tags: [tag] });
    expect(tag.nalus!.map((n) => n.type)).toEqual([6, 5]);
    expect(tag.size).toBe(body.length);
    expect(Buffer.from(encodeTagBody(tag)).toString('hex')).toBe('1701000000000000030605800000000265 88'.replace(' ', ''));
  });
});

describe('processor presets', () => {
  it('recording preset: requestSplit puts a NewFile before the next group, which is then rebased', () => {
    const p = new FlvProcessor({ preset: 'recording' });
    p.process({ kind: 'Header', allTags: [vh(), ah()], videoHeader: null, audioHeader: null });
    p.process({ kind: 'Data', tags: gop(0, 10, 1) });
    p.requestSplit();
    const g = gop(4000, 10, 2);
    const r = p.process({ kind: 'Data', tags: g });
    expect(kinds(r.actions)).toEqual(['NewFile', 'Data']);
    expect(r.comments.map((c) => [c.type, c.required])).toEqual([['Logging', false], ['TimestampJump', true]]);
    expect(g[0]!.timestamp).toBe(0);
    expect(kinds(p.process({ kind: 'Data', tags: gop(4400, 10, 3) }).actions)).toEqual(['Data']);
  });

  it('recording preset: RecordingStats per group with brec semantics', () => {
    const p = new FlvProcessor({ preset: 'recording' });
    const header = p.process({ kind: 'Header', allTags: [vh(), ah()], videoHeader: null, audioHeader: null });
    expect(header.stats).toMatchObject({ inputVideoBytes: 0, outputVideoFrames: 0, currentFileSize: 0, fileMaxTimestamp: 0, sessionMaxTimestamp: 0 });
    const g1 = gop(0, 10, 1);
    const s1 = p.process({ kind: 'Data', tags: g1 }).stats!;
    const videoBytes = g1.filter((t) => t.type === 9).reduce((n, t) => n + t.size + 15, 0);
    const audioBytes = g1.filter((t) => t.type === 8).reduce((n, t) => n + t.size + 15, 0);
    expect(s1).toMatchObject({
      inputVideoBytes: videoBytes, inputAudioBytes: audioBytes, outputVideoFrames: 10, outputAudioFrames: g1.length - 10,
      outputVideoBytes: videoBytes, outputAudioBytes: audioBytes, currentFileSize: 13 + videoBytes + audioBytes,
      fileMaxTimestamp: g1.at(-1)!.timestamp, sessionMaxTimestamp: g1.at(-1)!.timestamp, addedDuration: g1.at(-1)!.timestamp / 1000,
    });
    const dup = p.process({ kind: 'Data', tags: gop(400, 10, 1) }).stats!;
    expect(dup).toMatchObject({ inputVideoBytes: videoBytes, outputVideoFrames: 0, currentFileSize: 0, totalInputVideoBytes: 2 * videoBytes });
    p.requestSplit();
    const g3 = gop(800, 10, 3);
    const s3 = p.process({ kind: 'Data', tags: g3 }).stats!;
    expect(s3.currentFileSize).toBe(13 + videoBytes + audioBytes);
    expect(s3.fileMaxTimestamp).toBe(g3.at(-1)!.timestamp);
    expect(s3.sessionMaxTimestamp).toBe(g1.at(-1)!.timestamp + g3.at(-1)!.timestamp);
  });

  it('a Disconnect reason is surfaced on the processed group', () => {
    const p = new FlvProcessor({ preset: 'plain' });
    const r = p.process({ kind: 'Data', tags: [v(0, true), a(10), ah(), a(50)] });
    expect(r.disconnect).toBe('直播音频数据中间出现音频头');
  });
});
