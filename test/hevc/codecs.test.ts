// HEVC tag model and quality tokens: both FLV forms parse to one model, SPS facts, repair rules, token choice.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseQuality, parseQualityTokens, qualityTokens } from '../../src/bilibili/quality.js';
import { HEVC_NAL, hvccNalus, hvccSpsInfo, isIrap } from '../../src/flv/codecs/hevc.js';
import { enhancedToLegacy, legacyToEnhanced } from '../../src/flv/codecs/video-format.js';
import { videoHeaderInfo } from '../../src/flv/codecs/video-header.js';
import { FlvParser } from '../../src/flv/parser.js';
import { processFile } from '../../src/flv/process-file.js';
import { type FlvTag, TagFlag, TagType } from '../../src/flv/tag.js';
import { clipPath } from '../../src/simulator/clips.js';
import { mapTagBodies, toEnhancedRaw } from './media.js';

const clip = readFileSync(clipPath('clip-360p-hevc.flv'));
const parse = (buf: Uint8Array): FlvTag[] => {
  const p = new FlvParser();
  const r = p.push(buf);
  expect(r.error).toBeNull();
  p.end();
  return r.tags;
};

describe('one tag model for codec-12 and Enhanced FLV HEVC', () => {
  it('both forms parse to the same flags, timestamps, bodies and NALU lists', () => {
    const a = parse(clip);
    const b = parse(toEnhancedRaw(clip));
    expect(b.length).toBe(a.length);
    for (let i = 0; i < a.length; i++) {
      expect([b[i]!.type, b[i]!.flag, b[i]!.timestamp]).toEqual([a[i]!.type, a[i]!.flag, a[i]!.timestamp]);
      expect(Buffer.from(b[i]!.data!).equals(Buffer.from(a[i]!.data!))).toBe(true);
      expect(b[i]!.nalus?.map((n) => n.type)).toEqual(a[i]!.nalus?.map((n) => n.type));
    }
    const video = a.filter((t) => t.type === TagType.Video);
    expect(video[0]!.flag).toBe(TagFlag.Header | TagFlag.Keyframe);
    const keyframes = video.filter((t) => t.flag === TagFlag.Keyframe);
    expect(keyframes).toHaveLength(4); // a GOP of 24 frames in 96
    // Keyframes carry an IRAP slice (IDR here), other frames none.
    for (const k of keyframes) expect(k.nalus!.some((n) => isIrap(n.type))).toBe(true);
    expect(video.filter((t) => t.flag === TagFlag.None).every((t) => t.nalus!.every((n) => !isIrap(n.type)))).toBe(true);
  });

  it('the sequence header: hvcC with VPS/SPS/PPS, size and frame rate from the SPS', () => {
    const header = parse(clip).find((t) => t.type === TagType.Video && t.flag & TagFlag.Header)!;
    expect(hvccNalus(header.data!.subarray(5))!.map((n) => n.type)).toEqual([HEVC_NAL.Vps, HEVC_NAL.Sps, HEVC_NAL.Pps]);
    expect(hvccSpsInfo(header.data!.subarray(5))).toMatchObject({ width: 640, height: 360, fps: 25, chromaFormat: 1, bitDepthLuma: 8 });
    expect(videoHeaderInfo(header.data)).toEqual({ codec: 'hevc', width: 640, height: 360, fps: 25 });
    const big = parse(readFileSync(clipPath('clip-480p-hevc.flv'))).find((t) => t.type === TagType.Video)!;
    expect(videoHeaderInfo(big.data)).toMatchObject({ width: 854, height: 480 });
  });

  it('Enhanced ↔ codec-12 conversion keeps composition time and bytes; CodedFramesX when it is 0', () => {
    const frame = Uint8Array.of(0x2c, 1, 0, 0, 40, 0, 0, 0, 3, 0x02, 0x01, 0xaa);
    const enhanced = legacyToEnhanced(frame);
    expect([...enhanced.subarray(0, 8)]).toEqual([0xa1, 0x68, 0x76, 0x63, 0x31, 0, 0, 40]);
    expect([...(enhancedToLegacy(enhanced) as Uint8Array)]).toEqual([...frame]);
    const zero = Uint8Array.of(0x1c, 1, 0, 0, 0, 0, 0, 0, 3, 0x26, 0x01, 0xaa);
    const x = legacyToEnhanced(zero);
    expect(x[0]).toBe(0x93); // key frame, CodedFramesX
    expect([...(enhancedToLegacy(x) as Uint8Array)]).toEqual([...zero]);
    expect((enhancedToLegacy(Uint8Array.of(0x91, 0x76, 0x70, 0x30, 0x39, 0)) as { code: string }).code).toBe('UNSUPPORTED_CODEC');
    // Enhanced avc1 is read as codec id 7.
    expect([...(enhancedToLegacy(Uint8Array.of(0x90, 0x61, 0x76, 0x63, 0x31, 1, 2)) as Uint8Array)]).toEqual([0x17, 0, 0, 0, 0, 1, 2]);
  });

  it('repair on HEVC: filler NALUs (38) are removed, a changed header starts a new file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-hevc-'));
    try {
      // Pad every frame with a filler NALU, then append the 480p clip (new VPS/SPS/PPS) after the 360p one;
      // the input is Enhanced FLV on purpose: the rules must not care which form came in.
      const other = readFileSync(clipPath('clip-480p-hevc.flv'));
      const input = join(dir, 'in.flv');
      writeFileSync(input, toEnhancedRaw(Buffer.concat([withFiller(clip), shifted(other.subarray(13), 4000)])));
      const r = processFile({ input, outputBase: join(dir, 'out') });
      expect(r.status).toBe('OK');
      expect(r.outputFileCount).toBe(2);
      const out = parse(readFileSync(r.outputFiles[0]!));
      const fillers = out.filter((t) => t.type === TagType.Video && t.nalus).flatMap((t) => t.nalus!).filter((n) => n.type === HEVC_NAL.FillerData);
      expect(fillers).toHaveLength(0);
      expect(parse(withFiller(clip)).filter((t) => t.nalus?.some((n) => n.type === HEVC_NAL.FillerData)).length).toBeGreaterThan(90);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Appends a 20-byte HEVC filler NALU to every codec-12 video frame. */
function withFiller(flv: Buffer): Buffer {
  const filler = Buffer.concat([Buffer.from([0, 0, 0, 16, 0x4c, 0x01]), Buffer.alloc(13, 0xff), Buffer.from([0x80])]);
  return mapTagBodies(flv, (type, body) => (type === TagType.Video && body[1] === 1 ? Buffer.concat([body, filler]) : body));
}

/** Tags (no file header) with `ms` added to every timestamp. */
function shifted(tags: Buffer, ms: number): Buffer {
  const out = Buffer.from(tags);
  for (let pos = 0; pos + 11 <= out.length;) {
    const size = out.readUIntBE(pos + 1, 3);
    out.writeUIntBE(out.readUIntBE(pos + 4, 3) + ms, pos + 4, 3);
    pos += 11 + size + 4;
  }
  return out;
}

describe('quality tokens (brec 2.15)', () => {
  it('parses every token form in order; a bare qn is avc; repeats and junk are dropped', () => {
    expect(parseQualityTokens('avc10000, hevc10000，400、HEVC:250 h265150 80 avc10000 x12 -5')).toEqual([
      { codec: 'avc', qn: 10000 }, { codec: 'hevc', qn: 10000 }, { codec: 'avc', qn: 400 }, { codec: 'hevc', qn: 250 },
      { codec: 'hevc', qn: 150 }, { codec: 'avc', qn: 80 },
    ]);
    expect(qualityTokens('')).toEqual([{ codec: 'avc', qn: 10000 }, { codec: 'hevc', qn: 10000 }]);
    expect(qualityTokens(null)).toEqual(qualityTokens('avc10000,hevc10000'));
  });

  it('the first token the room offers wins; an unavailable codec falls back to the next entry', () => {
    const both = new Map([['avc', [10000, 400]], ['hevc', [10000]]] as const);
    const hevcOnly = new Map([['hevc', [10000, 400]]] as const);
    expect(chooseQuality(both, qualityTokens('hevc10000,avc10000'))).toEqual({ codec: 'hevc', qn: 10000 });
    expect(chooseQuality(both, qualityTokens('avc10000,hevc10000'))).toEqual({ codec: 'avc', qn: 10000 });
    expect(chooseQuality(hevcOnly, qualityTokens('avc10000,hevc10000'))).toEqual({ codec: 'hevc', qn: 10000 });
    expect(chooseQuality(both, qualityTokens('hevc400,400'))).toEqual({ codec: 'avc', qn: 400 });
    expect(() => chooseQuality(hevcOnly, qualityTokens('10000,400'))).toThrow(expect.objectContaining({ code: 'NO_MATCHING_QN' }));
  });
});
